"""What a club may be called, and its address: a club's name is shown beside its members' names and in their
bells, so it is checked as a player's name is (``keima.server.accounts``: nothing invisible, no look-alike of
another club's name, none of the server's reserved words), with the spaces and the few signs a club's name needs.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from keima.server.accounts import name_folds, reserved_reason, visible
from keima.server.errors import Refused

NAME_MIN, NAME_MAX = 3, 60
SLUG_MAX = 40
#: Signs a club's name may hold besides letters, digits and single spaces ("Go-Club d'Orléans", "Go & Co").
NAME_SIGNS = "-'’.&()"
#: Words no club's name may hold, whatever their case or look-alikes: they would pass the club off as the
#: server's own or its staff's.
RESERVED_WORDS = ("admin", "administrator", "administrateur", "moderator", "moderateur", "modérateur", "staff",
                  "support", "official", "officiel", "keima")
_CODE = re.compile(r"^[0-9]{2}[A-Za-z]{1,2}$|^[A-Za-z0-9]{2,4}$")


def check_club_name(name: str) -> str:
    """Return ``name`` (NFC, blanks at both ends stripped) when it is a valid club name: 3 to 60 characters of
    letters, digits, single spaces and ``NAME_SIGNS``, with at least two letters, nothing invisible, and neither a
    reserved word nor a name the server keeps (``reserved_reason``: guests', deleted accounts', bots'). Raises
    ``Refused`` 422 naming the field ``name``. Whether another club looks alike is ``lookalike``'s."""
    name = unicodedata.normalize("NFC", name).strip()
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise Refused("invalid-request", f"a club's name has {NAME_MIN} to {NAME_MAX} characters", field="name")
    bad = [c for c in name if not ((c.isalnum() and visible(c)) or c == " " or c in NAME_SIGNS)]
    if bad:
        raise Refused("invalid-request", f"a club's name has only letters, digits, spaces and {NAME_SIGNS!r} "
                      f"(not {ascii(bad[0])})", field="name")
    if "  " in name:
        raise Refused("invalid-request", "a club's name has single spaces between its words", field="name")
    if sum(c.isalpha() for c in name) < 2:
        raise Refused("invalid-request", "a club's name needs at least two letters", field="name")
    words = re.split(r"[ \-'’.&()]+", name)
    reserved = {f for w in RESERVED_WORDS for f in name_folds(w)}
    for word in words:
        if word and name_folds(word) & reserved:
            raise Refused("invalid-request", f"{word!r} is kept for the server's own names", field="name")
    reason = reserved_reason(name.replace(" ", "-"))
    if reason is not None:
        raise Refused("invalid-request", reason, field="name")
    return name


def lookalike(name: str, others: Iterable[tuple[str, str]]) -> str | None:
    """The name of another club that ``name`` looks like, case and look-alike characters aside (``others``:
    (club id, name) pairs of the other clubs), or None."""
    folds = name_folds(name)
    for _cid, other in others:
        if folds & name_folds(other):
            return other
    return None


def check_code(code: str | None) -> str | None:
    """The FFG club code as the rating list writes it ("38Gr", "69Ly"; None or blank: none); raises ``Refused``
    422 (``field`` ``code``) for anything else."""
    if code is None or not code.strip():
        return None
    code = code.strip()
    if not _CODE.match(code):
        raise Refused("invalid-request", "an FFG club code has 2 to 4 letters and digits, as the rating list "
                      "writes it (\"38Gr\")", field="code")
    return code


def slug_of(name: str, taken: Iterable[str]) -> str:
    """The club's address from its name: ASCII letters and digits in lower case, words joined by ``-``, at most
    ``SLUG_MAX`` characters ("Club de go de Grenoble" -> ``club-de-go-de-grenoble``); ``-2``, ``-3``... added
    when ``taken`` holds it."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")[:SLUG_MAX].strip("-") or "club"
    used = set(taken)
    slug, n = base, 1
    while slug in used:
        n += 1
        slug = f"{base[:SLUG_MAX - len(str(n)) - 1]}-{n}"
    return slug
