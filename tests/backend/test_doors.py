"""One write path per act (issue #28): the walk over every registered ModelAdmin and every write operation of
the OpenAPI schema. Each is read-only, saves through a named service (the one its save really calls), edits plain
data the law does not govern, or is declared with why; docs/doors.md is the table of these declarations."""

import inspect
import re
import sys
from pathlib import Path

import pytest
from django.contrib import admin

from backend.admin_doors import DECLARED, ServiceRecordAdmin, door_of, resolve, superuser_request
from backend.api.doors import API_DOORS, API_EXEMPT, door_of_operation, write_operations

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
ADMINS = sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)


class _Called(Exception):
    """Raised by the stand-in for a declared service: the save reached it."""


def test_every_model_admin_is_read_only_a_service_plain_data_or_declared():
    request = superuser_request()
    undeclared = [m._meta.label for m, ma in ADMINS if door_of(ma, request)[0] == "undeclared"]
    assert not undeclared, undeclared
    registered = {m._meta.label for m, _ in ADMINS}
    assert set(DECLARED) <= registered, set(DECLARED) - registered  # no stale declaration


@pytest.mark.parametrize("model,model_admin", [(m, ma) for m, ma in ADMINS if isinstance(ma, ServiceRecordAdmin)],
                         ids=lambda x: getattr(getattr(x, "_meta", None), "label", ""))
def test_a_service_admin_adds_through_the_service_it_declares(monkeypatch, model, model_admin):
    request = superuser_request()
    path = model_admin.service_of_record
    assert callable(resolve(path)), path
    monkeypatch.setattr(sys.modules[path.rpartition(".")[0]], path.rpartition(".")[2],
                        lambda *a, **k: (_ for _ in ()).throw(_Called(path)))
    form = model_admin.get_form(request, None)()
    form.cleaned_data = {}
    with pytest.raises(_Called):
        model_admin.save_model(request, form.instance, form, False)


def test_the_other_service_admins_call_what_they_declare():
    request = superuser_request()
    others = [(m, ma) for m, ma in ADMINS if door_of(ma, request)[0] == "service" and not isinstance(ma, ServiceRecordAdmin)]
    assert others  # the tariff decree, the tariff study, the appeal's judgment
    for _model, model_admin in others:
        path = model_admin.service_of_record
        assert callable(resolve(path)), path
        name = path.rpartition(".")[2]
        assert re.search(rf"\b{name}\(", inspect.getsource(type(model_admin))), (type(model_admin).__name__, name)


def test_every_admin_act_calls_the_service_it_declares():
    """Each action declared by ``admin_act`` (docs/doors.md, "Admin actions with a form") calls its service through
    the services module, as the API's view does."""
    acts = [(getattr(type(ma), a) if isinstance(a, str) else a) for _m, ma in ADMINS for a in ma.actions or ()]
    acts = [func for func in acts if getattr(func, "service_of_act", None)]
    assert len(acts) >= 8  # Art. 6 (request, fee), Art. 11, Art. 34 (tolerance, swap), Art. 63 (decision, two notices)
    for func in acts:
        service = func.service_of_act
        assert callable(resolve(service)), service
        source = inspect.getsource(sys.modules[func.__module__])
        assert re.search(rf"_services\.{service.rpartition('.')[2]}\(", source), (func.__name__, service)


def _view_source(view) -> str:
    """The source of the view's own classes (not DRF's) and of its serializer: where a service can be called."""
    classes = [c for c in view.__mro__ if c.__module__.startswith(("backend.", "dispatch."))]
    serializer = getattr(view, "serializer_class", None)
    if serializer is not None:
        classes.append(serializer)
    return "\n".join(inspect.getsource(c) for c in classes)


def test_every_write_operation_of_the_schema_is_declared_once():
    operations = set(write_operations())
    assert not set(API_DOORS) & set(API_EXEMPT)
    assert operations == set(API_DOORS) | set(API_EXEMPT), (operations - set(API_DOORS) - set(API_EXEMPT),
                                                              set(API_DOORS) | set(API_EXEMPT) - operations)
    assert all(door_of_operation(op)[0] != "undeclared" for op in operations)


def test_every_write_operation_calls_the_service_it_declares():
    views = write_operations()
    missing = []
    for operation, path in API_DOORS.items():
        assert callable(resolve(path)), path
        if not re.search(rf"\b{path.rpartition('.')[2]}\(", _view_source(views[operation])):
            missing.append((operation, path))
    assert not missing, missing


def test_the_doors_table_is_current():
    sys.path.insert(0, str(ROOT / "tools"))
    from doors_table import render

    assert (ROOT / "docs" / "doors.md").read_text(encoding="utf-8") == render(), "run `make doors-table`"
