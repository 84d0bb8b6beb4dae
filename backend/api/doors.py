"""Every write operation of the API and the service it calls (issue #28: one write path per act).

``API_DOORS`` maps each POST/PUT/PATCH/DELETE of the OpenAPI schema to the dotted path of the service its view
calls; ``API_EXEMPT`` names the few that write nothing the law governs, and why. ``tests/backend/test_doors.py``
fails on an operation in neither, on a path that does not resolve, or on a view that does not call its service;
``tools/doors_table.py`` writes docs/doors.md from these declarations.
"""

_REGISTRY = "backend.registry.services"
_RANKS = "backend.ranks.services"
_ENFORCEMENT = "backend.enforcement.services"

API_DOORS = {
    "POST /api/infraction-types/": f"{_ENFORCEMENT}.catalogue.record_version",
    "POST /api/parameters/": "backend.parameters.services.record_act",
    "POST /api/rides/{ride_id}/share/": "dispatch.rides.safety.share_ride",
    "DELETE /api/rides/{ride_id}/share/": "dispatch.rides.safety.revoke_shares",
    "POST /api/rides/{ride_id}/sos/": "dispatch.rides.safety.raise_sos",
    "POST /api/sos/{alert_id}/ack/": "dispatch.rides.safety.acknowledge",
    "POST /api/absence-justifications/": f"{_RANKS}.ranks.file_justification",
    "POST /api/absence-justifications/{pk}/accept/": f"{_RANKS}.ranks.decide_justification",
    "POST /api/absence-justifications/{pk}/refuse/": f"{_RANKS}.ranks.decide_justification",
    "POST /api/appeals/": f"{_ENFORCEMENT}.appeals.file_appeal",
    "POST /api/appeals/{pk}/judge/": f"{_ENFORCEMENT}.appeals.judge_appeal",
    "POST /api/appeals/{pk}/notify-judgment/": f"{_ENFORCEMENT}.appeals.notify_judgment",
    "POST /api/autos/": f"{_ENFORCEMENT}.autos.issue",
    "POST /api/autos/{pk}/decide/": f"{_ENFORCEMENT}.decisions.decide",
    "POST /api/autos/{pk}/defence/": f"{_ENFORCEMENT}.autos.file_defence",
    "POST /api/autos/{pk}/deliver-copy/": f"{_ENFORCEMENT}.autos.deliver_copy",
    "POST /api/autos/{pk}/notify/": f"{_ENFORCEMENT}.decisions.notify_decision",
    "POST /api/auxiliaries/": f"{_REGISTRY}.auxiliaries.authorize_auxiliary",
    "POST /api/auxiliaries/{pk}/cancel/": f"{_REGISTRY}.auxiliaries.cancel_auxiliary",
    "POST /api/auxiliaries/{pk}/social-security-proofs/": f"{_REGISTRY}.auxiliaries.record_social_security_proof",
    "POST /api/bookings/": "backend.bookings.services.book",
    "POST /api/bookings/{pk}/cancel/": "backend.bookings.services.cancel",
    "POST /api/cmts/": f"{_REGISTRY}.auxiliaries.issue_cmt",
    "POST /api/complaints/": f"{_ENFORCEMENT}.complaints.file_complaint",
    "POST /api/complaints/{pk}/triage/": f"{_ENFORCEMENT}.complaints.triage_complaint",
    "POST /api/contests/": f"{_RANKS}.contests.publish_contest",
    "POST /api/contests/{pk}/candidates/": f"{_RANKS}.contests.register_candidate",
    "POST /api/contests/{pk}/classify/": f"{_RANKS}.contests.classify_contest",
    "POST /api/contests/{pk}/draws/": f"{_RANKS}.contests.record_draw",
    "POST /api/contests/{pk}/publish-result/": f"{_RANKS}.contests.publish_result",
    "POST /api/correction-tables/": "backend.tariffs.services.authorize_correction_table",
    "POST /api/geo/central-zone/": f"{_RANKS}.ranks.upload_central_zone",
    "POST /api/inquiries/{pk}/decide/": f"{_REGISTRY}.revocation.decide_inquiry",
    "POST /api/inquiries/{pk}/defence/": f"{_REGISTRY}.revocation.file_defence",
    "POST /api/inquiries/{pk}/summon/": f"{_REGISTRY}.revocation.summon",
    "POST /api/inspections/": f"{_REGISTRY}.vehicles.record_inspection",
    "POST /api/inspections/{pk}/pay-fee/": f"{_REGISTRY}.vehicles.pay_inspection_fee",
    "PUT /api/me/pix-key/": "backend.payments.services.register_pix_key",
    "POST /api/penalties/{pk}/pay/": f"{_ENFORCEMENT}.fines.pay_fine",
    "POST /api/people/": f"{_REGISTRY}.people.register_person",
    "PUT /api/people/{pk}/": f"{_REGISTRY}.people.update_person",
    "PATCH /api/people/{pk}/": f"{_REGISTRY}.people.update_person",
    "DELETE /api/passengers/me/": "backend.privacy.retention.erase_passenger",
    "POST /api/permits/{pk}/inquiries/": f"{_REGISTRY}.revocation.open_inquiry",
    "POST /api/permits/{pk}/judicial-loss/": f"{_REGISTRY}.revocation.record_judicial_loss",
    "POST /api/permits/{pk}/vehicle-tolerance/": f"{_REGISTRY}.vehicles.tolerate_vehicle",
    "POST /api/permits/{pk}/judicial-loss-substitution/": f"{_REGISTRY}.revocation.substitute_after_judicial_loss",
    "POST /api/permits/{pk}/renewals/": f"{_REGISTRY}.permits.request_renewal",
    "POST /api/permits/{pk}/replace-vehicle/": f"{_REGISTRY}.vehicles.replace_vehicle",
    "POST /api/permits/{pk}/sign-term/": f"{_REGISTRY}.permits.sign_term",
    "POST /api/permits/{pk}/transfers/": f"{_REGISTRY}.transfers.request_transfer",
    "POST /api/permits/{pk}/withdraw/": f"{_REGISTRY}.permits.withdraw",
    "POST /api/rank-checkins/": f"{_RANKS}.ranks.check_in",
    "POST /api/rank-checkins/{pk}/check-out/": f"{_RANKS}.ranks.check_out",
    "POST /api/rank-swaps/": f"{_RANKS}.ranks.request_swap",
    "POST /api/rank-swaps/{pk}/authorize/": f"{_RANKS}.ranks.authorize_swap",
    "POST /api/rank-swaps/{pk}/refuse/": f"{_RANKS}.ranks.refuse_swap",
    "POST /api/ranks/": f"{_RANKS}.ranks.create_rank",
    "PUT /api/ranks/{pk}/": f"{_RANKS}.ranks.update_rank",
    "PATCH /api/ranks/{pk}/": f"{_RANKS}.ranks.update_rank",
    "DELETE /api/ranks/{pk}/": f"{_RANKS}.ranks.cancel_rank",
    "POST /api/ranks/{pk}/observations/": f"{_RANKS}.ranks.record_observation",
    "POST /api/ranks/{pk}/titulars/": f"{_RANKS}.ranks.designate_titular",
    "POST /api/ratings/": "backend.ratings.services.rate_ride",
    "POST /api/renewals/{pk}/documents/": f"{_REGISTRY}.permits.update_renewal_documents",
    "POST /api/rides/{pk}/release-fare/": "backend.trips.services.release_fare",
    "POST /api/rides/{ride_id}/payment/": "backend.payments.services.record_payment",
    "POST /api/tariff-studies/": "backend.tariffs.services.create_study",
    "POST /api/tariffs/": "backend.tariffs.services.decree_tariff",
    "PUT /api/tariffs/{pk}/": "backend.tariffs.services.amend_tariff",
    "PATCH /api/tariffs/{pk}/": "backend.tariffs.services.amend_tariff",
    "DELETE /api/tariffs/{pk}/": "backend.tariffs.services.revoke_tariff",
    "POST /api/taximeters/": f"{_REGISTRY}.taximeters.install_taximeter",
    "POST /api/taximeters/{pk}/aferitions/": f"{_REGISTRY}.taximeters.record_aferition",
    "POST /api/taximeters/{pk}/remove/": f"{_REGISTRY}.taximeters.remove_taximeter",
    "POST /api/transfers/{pk}/pay-fee/": f"{_REGISTRY}.transfers.pay_transfer_fee",
    "POST /api/vehicles/": f"{_REGISTRY}.vehicles.register_vehicle",
    "POST /api/meter/recompute/": "backend.tariffs.services.recompute_trip",
}

_CALENDAR = "the municipal calendar is data DIMUTRAN maintains, sourced per day (Art. 45, II)"

API_EXEMPT = {
    "POST /api/auth/token/": "signing in: an account's token, no act of the law",
    "POST /api/auth/logout/": "signing out: an account's token, no act of the law",
    "POST /api/fare-estimate/": "a computation answered, nothing written",
    "POST /api/passengers/": "a passenger's name and phone; no rule of the law reads them",
    "DELETE /api/me/pix-key/": "where a person receives payouts (docs/payments.md); no rule of the law reads it",
    "POST /api/auxiliaries/{pk}/pix-receiver/": "whose Pix key receives the fares (docs/payments.md); no rule reads it",
    "POST /api/municipal-holidays/": _CALENDAR,
    "PUT /api/municipal-holidays/{pk}/": _CALENDAR,
    "PATCH /api/municipal-holidays/{pk}/": _CALENDAR,
    "DELETE /api/municipal-holidays/{pk}/": _CALENDAR,
}

WRITES = ("POST", "PUT", "PATCH", "DELETE")


def write_operations() -> dict[str, type]:
    """``"METHOD /path"`` -> the view class, for every write operation of the OpenAPI schema (drf-spectacular)."""
    from drf_spectacular.generators import SchemaGenerator

    generator = SchemaGenerator()
    generator._initialise_endpoints()
    return {f"{method} {path}": view.cls for path, _subpath, method, view in generator.endpoints if method in WRITES}


def door_of_operation(operation: str) -> tuple[str, str]:
    """(kind, detail) of one write operation: ``service`` and its dotted path, or ``exempt`` and why."""
    if operation in API_DOORS:
        return "service", API_DOORS[operation]
    if operation in API_EXEMPT:
        return "exempt", API_EXEMPT[operation]
    return "undeclared", "declare the service its view calls in backend/api/doors.py, or why it is exempt"
