"""What text from users keima accepts: player names and chat messages.

Both are shown to other people, so both are checked for what a reader would be misled by, not only for length:

- **Invisible characters.** Control characters (C0 and C1, U+0080-U+009F), zero-width characters, bidirectional
  overrides and isolates (which reorder what follows them on screen) and the other *default-ignorable* code points
  of Unicode (Hangul fillers such as U+3164 are letters that show as blanks) show nothing or rearrange the text.
  A chat message loses them (``clean_text``; the joiners and variation selectors that build emoji stay) and
  must keep something visible; a name may not contain any.
- **Names that impersonate.** Two names are *confusable* when they look alike although their characters differ:
  Cyrillic ``а`` for Latin ``a``, fullwidth ``ＡＬＩＣＥ``, mathematical bold letters, ``rn`` for ``m``. Unicode
  TR39 (*Unicode Security Mechanisms*, section 4) defines a string's *skeleton* for this: every character
  replaced by its prototype from the confusables table, so that confusable strings share one skeleton.
  ``name_folds`` gives a name's skeletons (from Unicode's confusables table, as the confusable-homoglyphs package ships it) taken
  without regard to case; a name is refused when it shares one with a player's name (``confusable``), with
  a bot's or engine's (``reserved_reason``), or begins like a guest's generated name (``Guest-4821``,
  ``Invité-4821``) or a deleted account's (``deleted-482113``).

Every refusal is an ``Refused`` 422 naming the field (``name`` or ``text``).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from keima.server.errors import Refused

#: The longest chat message kept, in characters (after ``clean_text``).
CHAT_MAX = 500

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 6, 200
#: The prefixes of the names the server gives (guests in English and French, deleted accounts): nobody may take
#: a name that begins like them.
RESERVED_PREFIXES = ("guest", "invité", "invite", "deleted")
#: The computer players' names, besides the GTP engines a server offers (``keima serve --engine NAME=...``).
BOT_NAMES = ("keima", "gnugo", "gnu-go", "gnu_go", "katago", "leela", "leelazero", "leela-zero", "pachi", "fuego")

# Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt): code points that a renderer shows
# as nothing when it cannot show them otherwise. Python's unicodedata does not expose the property.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
# Ignorable, yet part of what a reader sees: the zero-width joiner and the variation selectors and tags build
# emoji sequences (a family, a red heart, a flag). Kept in chat, never visible on their own.
_EMOJI_PARTS = frozenset([0x200D]) | frozenset(range(0xFE00, 0xFE10)) | frozenset(range(0xE0020, 0xE0080)) \
    | frozenset(range(0xE0100, 0xE01F0))
# Shown blank although not ignorable: the braille blank pattern.
_BLANK = frozenset([0x2800])


def ignorable(c: str) -> bool:
    """True for a default-ignorable code point (zero-width, bidi controls, Hangul fillers...)."""
    o = ord(c)
    return any(lo <= o <= hi for lo, hi in _IGNORABLE)


def visible(c: str) -> bool:
    """True when the character ``c`` shows something on its own: not a blank, a control, a format or
    default-ignorable character, nor a combining mark (which only changes the character before it)."""
    if c.isspace() or ord(c) in _BLANK or ignorable(c):
        return False
    return unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zs", "Zl", "Zp")


def clean_text(text: str) -> str:
    """The chat message as stored: control characters but line breaks removed (C0, DEL and C1), line and
    paragraph separators made line breaks, zero-width, bidi and the other invisible characters removed (the
    emoji joiner and selectors kept), blanks at both ends stripped. The limit of ``CHAT_MAX`` characters counts
    this cleaned text. Raises ``Refused`` 422 (``field`` ``text``) for a message with nothing visible left or
    too long."""
    kept = []
    for c in text:
        o = ord(c)
        if c in "\u2028\u2029":
            kept.append("\n")
        elif c == "\n" or (o in _EMOJI_PARTS):
            kept.append(c)
        elif o < 0x20 or 0x7F <= o <= 0x9F or ignorable(c) or unicodedata.category(c) == "Cf":
            continue
        else:
            kept.append(c)
    out = "".join(kept).strip()
    if not any(visible(c) for c in out):
        raise Refused("invalid-request", "a chat message needs some visible text", field="text")
    if len(out) > CHAT_MAX:
        raise Refused("invalid-request", f"a chat message has at most {CHAT_MAX} characters (it has "
                       f"{len(out)})", field="text")
    return out


def _prototypes() -> tuple[dict[str, str], dict[str, str]]:
    # Unicode's confusables table (confusables.txt of TR39, as the confusable-homoglyphs package ships it) links
    # each character with those that look like it. The characters linked, directly or through others, form one
    # class, shown by its prototype: its ASCII character when it has one, else its lowest code point. A character
    # that looks like a sequence of ASCII characters (``m`` and ``rn``) stands for that sequence.
    from confusable_homoglyphs import confusables

    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    def rank(c: str) -> tuple[bool, int]:
        return (not c.isascii(), ord(c))

    sequences: dict[str, str] = {}
    for char, looks in confusables.confusables_data.items():
        if len(char) != 1:
            continue
        for look in looks:
            other = look["c"]
            if len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    low, high = sorted((a, b), key=rank)
                    parent[high] = low
            elif other.isascii() and other.isalnum():
                sequences[char] = other
    prototype = {c: find(c) for c in list(parent)}
    return prototype, sequences


@functools.lru_cache(maxsize=1)
def _table() -> tuple[dict[str, str], dict[str, str]]:
    return _prototypes()


def skeleton(text: str) -> str:
    """The skeleton of ``text`` (Unicode TR39, section 4): each character replaced by the prototype of the
    characters that look like it, so that confusable strings have the same skeleton."""
    prototype, sequences = _table()
    out = []
    for c in unicodedata.normalize("NFD", text):
        p = prototype.get(c, c)
        out.append(sequences.get(p, sequences.get(c, p)))
    return unicodedata.normalize("NFD", "".join(out))


@functools.lru_cache(maxsize=65536)
def name_folds(name: str) -> frozenset[str]:
    """The forms of ``name`` that confusability compares, without regard to case or width: the skeleton of
    its case-folded NFKC form, and the case-folded skeleton (so that a capital ``I`` still reads as ``l``)."""
    n = unicodedata.normalize("NFKC", name)
    return frozenset({skeleton(n.casefold()), skeleton(n).casefold()})


def confusable(a: str, b: str) -> bool:
    """True when the names ``a`` and ``b`` look alike (they share a skeleton, case aside)."""
    return bool(name_folds(a) & name_folds(b))


def check_name(name: str) -> str:
    """Return ``name`` (NFC) when its characters make a valid player name: 3 to 20 letters, digits (0-9), ``_``
    or ``-``, with at least one letter or digit, and nothing invisible. Raises ``Refused`` 422 (``field``
    ``name``) saying what is wrong. Whether the name is free is ``reserved_reason``'s and the caller's."""
    name = unicodedata.normalize("NFC", name)
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise Refused("invalid-request", f"a name has {NAME_MIN} to {NAME_MAX} characters", field="name")
    bad = [c for c in name if not ((c.isalpha() and visible(c)) or c in "0123456789_-")]
    if bad:
        raise Refused("invalid-request", "a name has only letters, digits, '_' and '-' "
                       f"(not {ascii(bad[0])})", field="name")
    if not any(c.isalnum() for c in name):
        raise Refused("invalid-request", "a name needs at least one letter or digit", field="name")
    return name


def reserved_reason(name: str, engines: Iterable[str] = ()) -> str | None:
    """Why ``name`` may not be taken whoever asks, or None: it begins like a guest's or a deleted account's
    name (``RESERVED_PREFIXES``, look-alikes included), or it is a bot's or an engine's name (``BOT_NAMES`` and
    ``engines``; followed by anything but a letter, such as ``keima-strong``)."""
    folds = name_folds(name)
    for prefix in RESERVED_PREFIXES:
        if any(f.startswith(p) for f in folds for p in name_folds(prefix)):
            return f"names beginning with {prefix.capitalize()!r} are kept for the server's own names"
    for bot in (*BOT_NAMES, *engines):
        for f in folds:
            for p in name_folds(bot):
                if f == p or (f.startswith(p) and not f[len(p)].isalpha()):
                    return f"{bot!r} is the name of a computer player"
    return None


def refuse_reserved(name: str, engines: Iterable[str] = ()) -> None:
    """Raise ``Refused`` 422 (``field`` ``name``) when ``reserved_reason`` gives a reason."""
    reason = reserved_reason(name, engines)
    if reason is not None:
        raise Refused("invalid-request", reason, field="name")


def check_rank(rank: str | None) -> str | None:
    """Return the rank in its short French form (``"15k"``, ``"3d"``; ``"15 kyu"`` is accepted too), or None
    for no rank; raises ``Refused`` 422 for anything else. Kyu ranks go from 30k to 1k, dan ranks 1d to 9d."""
    if rank is None or rank.strip() == "":
        return None
    text = rank.strip().lower().replace(" ", "")
    for long, short in (("kyu", "k"), ("dan", "d")):
        if text.endswith(long):
            text = text[: -len(long)] + short
    digits, kind = text[:-1], text[-1:]
    if digits.isdigit() and digits[0] != "0" and kind in ("k", "d"):
        n = int(digits)
        if (kind == "k" and n <= 30) or (kind == "d" and n <= 9):
            return f"{n}{kind}"
    raise Refused("invalid-request", "a rank is written like \"15k\" (15 kyu, 30k to 1k) or \"3d\" "
                   "(3 dan, 1d to 9d)", field="rank")


def rank_words(rank: str | None) -> str | None:
    """``"15k"`` -> ``"15 kyu"``, ``"3d"`` -> ``"3 dan"`` (None stays None)."""
    if not rank:
        return None
    return f"{rank[:-1]} {'kyu' if rank[-1] == 'k' else 'dan'}"


def check_password(password: str) -> str:
    """Return ``password`` when its length is acceptable; raises ``Refused`` 422 otherwise."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refused("invalid-request", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
                       field="password")
    return password
