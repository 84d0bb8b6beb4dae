"""The websocket protocol's schemas (dispatch/protocol.py): a bad frame is a clear error, never a crash."""

import pytest

from dispatch import protocol, wire


def parse_error(role, text):
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.parse(role, text)
    return wire.error(caught.value)


def test_position_fast_path_accepts_numbers_in_range():
    assert protocol.parse("driver", '{"type": "position", "lat": -21.13, "lon": -42.36, "accuracy": 8}') == (
        "position", {"lat": -21.13, "lon": -42.36, "accuracy": 8}
    )


@pytest.mark.parametrize(
    "frame, fields",
    [
        ('{"type": "position", "lat": 91, "lon": 0}', {"lat"}),
        ('{"type": "position", "lat": true, "lon": "x"}', {"lat", "lon"}),
        ('{"type": "position", "lon": 0}', {"lat"}),
        ('{"type": "position", "lat": 0, "lon": 0, "accuracy": -1}', {"accuracy"}),
    ],
)
def test_bad_positions_name_their_fields(frame, fields):
    error = parse_error("driver", frame)
    assert error["code"] == "invalid" and set(error["fields"]) == fields


@pytest.mark.parametrize("status", protocol.DRIVER_STATUSES)
def test_each_status_a_driver_may_set_is_accepted(status):
    assert protocol.parse("driver", f'{{"type": "status", "status": "{status}"}}') == ("status", {"status": status})


@pytest.mark.parametrize("frame", ['{"type": "status"}', '{"type": "status", "status": "a_caminho"}',
                                   '{"type": "status", "status": ["livre"]}', '{"type": "status", "status": 1}'])
def test_a_bad_status_names_its_field_and_the_choices(frame):
    error = parse_error("driver", frame)
    assert error["code"] == "invalid" and set(error["fields"]) == {"status"}
    assert "livre, ocupado, fora_de_servico" in error["fields"]["status"][0]


@pytest.mark.parametrize(
    "text, code",
    [("{", "malformed_json"), ("[1]", "missing_type"), ('{"type": "fly"}', "unknown_type"), (None, "binary_not_supported")],
)
def test_malformed_frames(text, code):
    assert parse_error("driver", text)["code"] == code


def test_roles_cannot_send_each_others_messages():
    assert parse_error("passenger", '{"type": "offer_accept", "offer_id": 1}')["code"] == "unknown_type"
    assert parse_error("driver", '{"type": "broadcast", "text": "x"}')["code"] == "unknown_type"


def test_nested_errors_reach_the_client_as_plain_strings():
    error = parse_error("passenger", '{"type": "ride_request", "pickup": {"lat": "a"}}')
    assert isinstance(error["fields"]["pickup"]["lat"][0], str)


def test_what_the_clients_build_through_the_wire_is_what_the_server_accepts():
    """The driver app and the simulator build their frames with ``taxiwire.inbound``; the server checks them with
    serializers built from the same declarations, so a frame built right is accepted, with its defaults filled."""
    import json

    from taxiwire import inbound

    trace = [{"t": "2026-03-04T10:00:00-03:00", "lat": -21.13, "lon": -42.36, "accuracy_m": 5.0}]
    built = [
        ("driver", inbound.OFFER_ACCEPT(offer_id=7)), ("driver", inbound.POSITION(lat=-21.13, lon=-42.36, accuracy=4.0)),
        ("driver", inbound.STATUS(status="livre")), ("driver", inbound.RANK_CHECK_OUT()),
        ("driver", inbound.DRIVER_RIDE_CANCEL(ride_id=3, reason="vehicle_problem")),
        ("driver", inbound.RIDE_COMPLETE(ride_id=3, meter_total="12.30", trace=trace)),
        ("passenger", inbound.RIDE_REQUEST(pickup={"lat": -21.13, "lon": -42.367, "address": "Praça"})),
        ("passenger", inbound.RIDE_CANCEL(ride_id=3)), ("operator", inbound.BROADCAST(text="Atenção")),
    ]
    for role, frame in built:
        kind, data = protocol.parse(role, json.dumps(frame))
        assert kind == frame["type"]
    assert protocol.parse("passenger", json.dumps(inbound.RIDE_CANCEL(ride_id=3)))[1] == {"ride_id": 3, "reason": ""}
    with pytest.raises(wire.ContractError):
        inbound.OFFER_ACCEPT()  # a client's bug: a required field left out
    with pytest.raises(wire.ContractError):
        inbound.POSITION(lat=1.0, lon=2.0, at="agora")  # or one the protocol does not have


def test_a_limit_declared_in_the_wire_is_the_limit_the_server_keeps():
    from taxiwire import inbound

    error = parse_error("operator", '{"type": "broadcast", "text": "%s"}' % ("x" * 501))
    assert error["code"] == "invalid" and "500" in error["fields"]["text"][0]  # DRF's pt-BR message, the declared limit
    assert inbound.BROADCAST.fields["text"].max_length == 500
