"""The municipal registry (Lei 1.242/1987, Caps. I, II, V, VII).

Models hold state only; every write goes through ``services`` (one
transaction each, checked by the law core) and reads go through
``selectors``. The models live in ``permits`` (people, permits, alvarás,
auxiliares, transfers, revocation) and ``vehicles`` (cabs, inspections,
taxímetros); Django and the callers import them from here.
"""

from .permits import (
    Alvara,
    Auxiliary,
    Cmt,
    Permit,
    Person,
    Renewal,
    RenewalDocument,
    RevocationInquiry,
    SocialSecurityProof,
    Suspension,
    Transfer,
)
from .vehicles import Inspection, Taximeter, TaximeterAferition, Vehicle

__all__ = [
    "Alvara", "Auxiliary", "Cmt", "Inspection", "Permit", "Person", "Renewal", "RenewalDocument", "RevocationInquiry",
    "SocialSecurityProof", "Suspension", "Taximeter", "TaximeterAferition", "Transfer", "Vehicle",
]
