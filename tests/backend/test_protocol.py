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
