"""The wire: every websocket frame of the dispatch protocol, in and out, for every role (docs/dispatch-protocol.md).

Pure Python (dataclasses, no framework, nothing of the project), so the server (``dispatch``), its simulator and the
driver app on the phone (python-for-android) import the same declarations:

* :mod:`taxiwire.outbound`: what the server sends (``OFFER(offer=...)``), :func:`~taxiwire.outbound.validate`;
* :mod:`taxiwire.inbound`: what clients send (``inbound.OFFER_ACCEPT(offer_id=7)``), with the limits the server
  checks, and the frame that answers each one (``ANSWERS``);
* :mod:`taxiwire.bodies`: the objects frames carry (a ride, a cab, an offer);
* :mod:`taxiwire.limits`: the protocol's version, sizes, flood budgets and close codes.

No dict literal of a frame lives outside this package (tests/test_no_frame_literals.py).
"""
