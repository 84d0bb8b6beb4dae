"""Registering people: permit holders and auxiliaries (Art. 1, III-IV)."""

from django.db import transaction

from backend.api_errors import require
from taxilaw import documents

from ..models import Person


def _checked_documents(data: dict) -> dict:
    """CPF (Art. 5, IV) and CNH (Art. 5, I) normalized and checked, each refused in its own field."""
    data = dict(data)
    for field, normalize, validate in (
        ("cpf", documents.normalize_cpf, documents.validate_cpf),
        ("cnh", documents.normalize_cnh, documents.validate_cnh),
    ):
        if field in data:
            data[field] = normalize(data[field])
            require(validate(data[field]), field)
    return data


@transaction.atomic
def register_person(*, full_name: str, cpf: str, cnh: str, user=None, **extra) -> Person:
    """Register a professional identified by a valid CPF (Art. 5, IV) and CNH (Art. 5, I)."""
    data = _checked_documents({"cpf": cpf, "cnh": cnh})
    return Person.objects.create(full_name=full_name.strip(), user=user, **data, **extra)




@transaction.atomic
def update_person(person: Person, **data) -> Person:
    """Change a person's data; a new CPF or CNH must be valid (Art. 5, I, Art. 5, IV)."""
    for field, value in _checked_documents(data).items():
        setattr(person, field, value)
    person.save()
    return person
