"""Street names of Muriaé: normalising, matching the street layer's mangled names to the CEP list.

The street layer (``NOME``) is upper case without accents, with words run
together and typos (``RUADOUTORLIDIO BANDEIRA DE MELO``, ``AVENIDA MOSENHOR
SOARES``, ``KUBISTCHEK``); the CEP list spells names properly. Both are reduced
to a *core*: accents and case folded, abbreviations expanded, the street type
(rua, avenida, praça...) and leading honorifics (coronel, doutor, presidente...)
stripped, spaces removed, so that words run together compare equal to words
apart. Cores are compared with rapidfuzz's ``fuzz.ratio`` (normalised
Levenshtein similarity); :data:`MATCH_CUTOFF` decides a match.

Names with no match are given a readable name by :func:`readable_name`: run-
together words split against the vocabulary of the CEP list, each word title-
cased with its accents restored from the same vocabulary.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from rapidfuzz import fuzz, process

#: Minimum ``fuzz.ratio`` (0-100) between two cores for a street to take a CEP name.
#: 88 accepts one or two typos in a long name (KUBISTCHEK, MOSENHOR) and refuses
#: different people of the same surname (tested in tests/zones/test_names.py).
MATCH_CUTOFF = 88.0

#: A name missing the honorific the CEP list has (RUA GETULIO VARGAS for Rua Presidente Getúlio
#: Vargas) matches only if what is left has at least this many letters.
MIN_BARE_CORE = 9

STREET_TYPES = (
    "rua", "avenida", "praca", "travessa", "alameda", "beco", "rodovia", "estrada", "largo",
    "vila", "acesso", "ladeira", "viela", "via", "caminho", "passagem", "escadaria", "servidao", "trevo",
    "parque", "ponte", "viaduto", "anel", "contorno", "loteamento", "conjunto", "residencial",
)
HONORIFICS = (
    "presidente", "coronel", "doutor", "doutora", "monsenhor", "padre", "professor", "professora",
    "prefeito", "vereador", "deputado", "senador", "governador", "general", "major", "capitao", "tenente",
    "sargento", "marechal", "engenheiro", "dom", "dona", "frei", "irma", "maestro", "comendador", "desembargador",
    "ministro", "cabo", "soldado", "brigadeiro", "almirante", "juiz", "conego", "visconde", "barao",
    "conde", "princesa", "escrivao", "farmaceutico", "pastor", "bispo", "sao", "santa", "santo",
)
#: Street types that name the same kind of thoroughfare: the layer and the CEP list disagree
#: on "Rua" / "Avenida" for one street (AVENIDA MOSENHOR SOARES is Rua Monsenhor Soares), but a
#: travessa, beco, vila or praça is another place than the rua of the same name.
INTERCHANGEABLE_TYPES = {"rua": "via", "avenida": "via", "": "via"}
#: Abbreviations people type (and the CEP list sometimes uses), expanded before comparing.
ABBREVIATIONS = {
    "r": "rua", "av": "avenida", "pca": "praca", "pc": "praca", "tv": "travessa", "trav": "travessa",
    "al": "alameda", "rod": "rodovia", "est": "estrada", "lg": "largo", "cel": "coronel", "dr": "doutor",
    "dra": "doutora", "pres": "presidente", "mons": "monsenhor", "pe": "padre", "prof": "professor",
    "profa": "professora", "pref": "prefeito", "ver": "vereador", "dep": "deputado", "sen": "senador",
    "gov": "governador", "gal": "general", "maj": "major", "cap": "capitao", "ten": "tenente",
    "mal": "marechal", "eng": "engenheiro", "sta": "santa", "sto": "santo", "n": "nossa", "sra": "senhora",
    "cmdor": "comendador", "des": "desembargador", "jk": "juscelino kubitschek",
}
#: Lower-case words inside a title-cased name.
PARTICLES = {"de", "da", "do", "das", "dos", "e", "a", "o", "em", "na", "no"}

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def fold(text: str) -> str:
    """Lower case, accents removed, anything but letters and digits turned into single spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    return _NON_ALNUM.sub(" ", plain).strip()


def expand(words: Iterable[str]) -> list[str]:
    """Abbreviations (``cel``, ``dr``, ``av``...) replaced by the full word."""
    return [part for w in words for part in ABBREVIATIONS.get(w, w).split()]


#: Prefixes peeled off a run-together first word (RUADOUTORLIDIO): long enough not to eat a
#: name's own start (``dom`` would turn Domiciano into iciano, ``santo`` Santos Dumont into sdumont).
_RUN_TOGETHER_UNSAFE = {"via", "dom", "dona", "sao", "santa", "santo", "cabo", "anel", "major", "conde", "frei"}
_MIN_RUN_TOGETHER = 9


def _peel(words: list[str], prefixes: Sequence[str]) -> list[str]:
    """Drop leading words that are one of ``prefixes``; peel them off a long run-together first word."""
    words = list(words)
    while len(words) > 1 and words[0] in prefixes:
        words.pop(0)
    while words and len(words[0]) >= _MIN_RUN_TOGETHER:
        head = next((p for p in prefixes if p not in _RUN_TOGETHER_UNSAFE and words[0].startswith(p)
                     and len(words[0]) > len(p) + 2), None)
        if head is None:
            break
        words[0] = words[0][len(head):]
    return words


_TYPES_LONGEST_FIRST = sorted(STREET_TYPES, key=len, reverse=True)
_HONORIFICS_LONGEST_FIRST = sorted(set(HONORIFICS), key=len, reverse=True)


def _titled_words(name: str) -> list[str]:
    return _peel(expand(fold(name).split()), _TYPES_LONGEST_FIRST)


def titled_core(name: str) -> str:
    """Folded, expanded, the street type stripped, honorifics kept, no spaces (``monsenhorsoares``)."""
    return "".join(_titled_words(name))


def core(name: str) -> str:
    """The comparable core of a street name: :func:`titled_core` with leading honorifics stripped too."""
    return "".join(_peel(_titled_words(name), _HONORIFICS_LONGEST_FIRST))


def _type_class(kind: str) -> str:
    return INTERCHANGEABLE_TYPES.get(kind, kind)


def street_type(name: str) -> str:
    """The folded street type a name starts with (``rua``, ``avenida``...), or ``""``."""
    words = expand(fold(name).split())
    if not words:
        return ""
    if words[0] in STREET_TYPES:
        return words[0]
    return next((t for t in _TYPES_LONGEST_FIRST if t not in _RUN_TOGETHER_UNSAFE and words[0].startswith(t)), "")


@dataclass(frozen=True)
class Match:
    name: str  # the CEP list's spelling
    score: float


class CepNames:
    """The CEP list's street names, indexed by core, with their accented vocabulary."""

    def __init__(self, names: Iterable[str]):
        self.names = sorted(set(names))
        self.cores = [core(n) for n in self.names]
        self.titled = [titled_core(n) for n in self.names]
        self.kinds = [_type_class(street_type(n)) for n in self.names]
        spellings: dict[str, Counter] = {}
        for n in self.names:
            for word in re.findall(r"[^\W\d_]+", n):
                spellings.setdefault(fold(word), Counter())[word.lower()] += 1
        #: folded word -> its most frequent accented lower-case spelling
        self.vocabulary = {k: c.most_common(1)[0][0] for k, c in spellings.items()}
        for extra in (*STREET_TYPES, *HONORIFICS, *PARTICLES):
            self.vocabulary.setdefault(extra, extra)
        self.vocabulary.update({"praca": "praça", "capitao": "capitão", "irma": "irmã", "servidao": "servidão"})

    def match(self, mangled: str) -> Match | None:
        """The CEP name whose core is closest to ``mangled``'s, if at least :data:`MATCH_CUTOFF`.

        Cores are compared with and without honorifics (a typo inside one, ``MOSENHOR``, must
        not hide the match); only names of a compatible street type are candidates
        (:data:`INTERCHANGEABLE_TYPES`); among equal scores the same type wins.
        """
        key = core(mangled)
        if not key:
            return None
        kind = street_type(mangled)
        wanted = _type_class(kind)
        titled = titled_core(mangled)
        scores: dict[int, float] = {}
        for query, choices, bare in ((key, self.cores, True), (titled, self.titled, False)):
            for _, score, index in process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=MATCH_CUTOFF, limit=8):
                if self.kinds[index] != wanted:
                    continue
                if bare and titled != key and self.titled[index] != self.cores[index]:
                    continue  # both carry an honorific: compare it too (Princesa Isabel is not Santa Isabel)
                if bare and titled != self.titled[index] and len(key) < MIN_BARE_CORE:
                    continue  # a lone surname (RUA SOARES) is too weak to supply a missing honorific
                scores[index] = max(score, scores.get(index, 0.0))
        if not scores:
            return None
        best = max(scores, key=lambda i: (scores[i], street_type(self.names[i]) == kind, -i))
        return Match(self.names[best], scores[best])

    def segment(self, token: str) -> list[str]:
        """Split a run-together folded token into vocabulary words (fewest words); the token itself if impossible."""
        n = len(token)
        if token in self.vocabulary or n > 60:
            return [token]
        best: list[list[str] | None] = [None] * (n + 1)
        best[0] = []
        for end in range(1, n + 1):
            for start in range(max(0, end - 20), end):
                head = best[start]
                word = token[start:end]
                if head is not None and word in self.vocabulary and (len(word) > 1 or word in PARTICLES):
                    candidate = [*head, word]
                    current = best[end]
                    if current is None or len(candidate) < len(current):
                        best[end] = candidate
        found = best[n]
        if found is not None:
            return found
        # an unknown word (a surname the CEP list lacks) after known prefixes: peel those off
        for prefix in (*_TYPES_LONGEST_FIRST, *_HONORIFICS_LONGEST_FIRST):
            if prefix not in _RUN_TOGETHER_UNSAFE and token.startswith(prefix) and len(token) > len(prefix) + 2:
                return [prefix, *self.segment(token[len(prefix):])]
        return [token]

    def readable_name(self, mangled: str) -> str:
        """A title-cased, accent-restored name for a street the CEP list does not have."""
        words: list[str] = []
        for token in fold(mangled).split():
            words.extend(self.segment(token) if len(token) > 6 else [token])
        out = []
        for i, word in enumerate(words):
            spelt = self.vocabulary.get(word, word)
            m = _ROAD_CODE.fullmatch(word)
            if m:  # br356 -> BR-356
                out.append(f"{m.group(1).upper()}-{m.group(2)}")
            elif 0 < i < len(words) - 1 and word in PARTICLES:
                out.append(spelt)
            else:
                out.append(spelt[:1].upper() + spelt[1:])
        return " ".join(out)


_ROAD_CODE = re.compile(r"(br|mg|amg)(\d{2,3})")
