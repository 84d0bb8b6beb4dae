"""Personal identifiers taken out of a free text that must stay (a complaint's account after its author's erasure).

An Art. 60 complaint is an enforcement record: its account stays while DIMUTRAN needs it, but what identifies the
passenger goes: their name, their phone, the addresses of their rides, and any CPF, phone number or e-mail written
in it (a rating comment held a CPF and a phone). What is left still says what happened.
"""

from __future__ import annotations

import re

REMOVED = "[dado pessoal removido]"
_CPF = re.compile(r"(?<!\d)\d{3}\.?\d{3}\.?\d{3}[-.\s]?\d{2}(?!\d)")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# Brazilian phones as typed: +55, (32), 9 9999-1234, 3721 1234, with or without separators.
_PHONE = re.compile(r"(?<![\d+])(?:\+?55[\s.-]?)?(?:\(?\d{2}\)?[\s.-]?)?9?\s?\d{4}[\s.-]?\d{4}(?!\d)")
NAME_PART_MIN = 3  # "de", "da", "e" stay: they are not the person


def redact(text: str, *, names=(), phrases=()) -> str:
    """``text`` without CPFs, phones, e-mails, the words of ``names`` and the literal ``phrases`` (addresses)."""
    for phrase in sorted({p.strip() for p in phrases if p and p.strip()}, key=len, reverse=True):
        text = re.sub(re.escape(phrase), REMOVED, text, flags=re.IGNORECASE)
    for pattern in (_EMAIL, _CPF, _PHONE):
        text = pattern.sub(REMOVED, text)
    words = {w for name in names for w in re.findall(r"\w+", name or "") if len(w) >= NAME_PART_MIN}
    for word in sorted(words, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", REMOVED, text, flags=re.IGNORECASE)
    return text
