"""Registering people: permit holders and auxiliaries (Art. 1, III-IV)."""

from django.db import transaction

from backend.api_errors import require
from taxilaw import documents

from ..models import Person


@transaction.atomic
def register_person(*, full_name: str, cpf: str, cnh: str, user=None, **extra) -> Person:
    """Register a professional identified by a valid CPF (Art. 5, IV) and CNH (Art. 5, I)."""
    cpf, cnh = documents.normalize_cpf(cpf), documents.normalize_cnh(cnh)
    require(documents.validate_cpf(cpf), "cpf")
    require(documents.validate_cnh(cnh), "cnh")
    return Person.objects.create(full_name=full_name.strip(), cpf=cpf, cnh=cnh, user=user, **extra)




@transaction.atomic
def update_person(person: Person, **data) -> Person:
    """Change a person's data; a new CPF or CNH must be valid (Art. 5, I, Art. 5, IV)."""
    if "cpf" in data:
        data["cpf"] = documents.normalize_cpf(data["cpf"])
        require(documents.validate_cpf(data["cpf"]), "cpf")
    if "cnh" in data:
        data["cnh"] = documents.normalize_cnh(data["cnh"])
        require(documents.validate_cnh(data["cnh"]), "cnh")
    for field, value in data.items():
        setattr(person, field, value)
    person.save()
    return person
