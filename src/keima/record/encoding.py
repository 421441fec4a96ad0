"""Decoding SGF bytes whose character set may be unknown.

SGF says the text encoding is named by the root ``CA`` property and defaults to ISO-8859-1, but many
real files (Fox, Tygem, old Japanese and Chinese programs) are Shift-JIS or GB18030 without any ``CA``.
Reading such a file as Latin-1 would turn every name into mojibake, so without ``CA`` we try UTF-8, then
score the East Asian candidates by how ordinary the decoded characters are, and only then fall back to
Latin-1 (cp1252 when it decodes).

General-purpose detectors were tried first: on the few dozen non-ASCII bytes of a typical record
(two names and a result) they confuse GB18030 with Korean, so a small scorer tuned to Go records is used.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

# The first CA property of the file, read from the raw bytes before any decoding (it is ASCII).
_CA_RE = re.compile(rb"CA\s*\[\s*([^\]\\]*?)\s*\]")

#: Candidates tried, in order of preference on a tie, when the file names no charset.
_CJK_CANDIDATES = ("gb18030", "cp932")

#: A candidate must score above this (mean plausibility of its non-ASCII characters) to beat Latin-1.
_THRESHOLD = 0.6


@dataclass
class Decoded:
    """The text of an SGF file and how it was obtained.

    ``encoding`` is the Python codec used; ``declared`` the ``CA`` value found (or None);
    ``warnings`` say when the declared charset was wrong or unknown, or when one was guessed.
    """

    text: str
    encoding: str
    declared: str | None
    warnings: list[str] = field(default_factory=list)


def _codec_name(name: str) -> str | None:
    """Return Python's canonical codec name for ``name``, or None when Python has no such codec."""
    try:
        info = codecs.lookup(name)
        # SGF's syntax is ASCII: a charset that does not keep ASCII bytes as they are (UTF-16, base64...)
        # cannot be what the file is in.
        if "(;AB[]\\".encode(info.name) != b"(;AB[]\\":
            return None
    except (LookupError, ValueError, UnicodeError, TypeError):
        return None
    return info.name


def _strict(data: bytes, encoding: str) -> str | None:
    """Decode strictly; None when the bytes are not valid in ``encoding``."""
    try:
        return data.decode(encoding)
    except (UnicodeError, LookupError, ValueError):
        return None


def _lead_byte(ch: str, codec: str) -> int | None:
    """The first byte of ``ch`` in ``codec`` (its row in the charset's table), or None when it has no form there."""
    try:
        return ch.encode(codec)[0]
    except UnicodeEncodeError:
        return None


def _gb_weight(ch: str) -> float:
    """How plausible ``ch`` is in Chinese text: GB2312 level 1 is the common set."""
    lead = _lead_byte(ch, "gb2312")
    if lead is None:
        return 0.0
    if 0xB0 <= lead <= 0xD7:
        return 1.0
    if 0xA1 <= lead <= 0xA9:  # punctuation, full-width forms
        return 0.8
    return 0.5


def _sjis_weight(ch: str) -> float:
    """How plausible ``ch`` is in Japanese text: kana and JIS level 1 kanji are common."""
    code = ord(ch)
    if 0xFF61 <= code <= 0xFF9F or 0xE000 <= code <= 0xF8FF:
        # Half-width katakana and private-use characters are what Chinese or Latin bytes turn into.
        return 0.0
    if 0x3000 <= code <= 0x30FF or 0xFF01 <= code <= 0xFF5E:
        return 1.0
    lead = _lead_byte(ch, "shift_jis")
    if lead is None:
        return 0.1
    if 0x88 <= lead <= 0x9F:
        return 1.0
    return 0.3


#: Non-ASCII characters scored at most: a sample that tells the candidates apart on any real record, and
#: keeps the cost of a huge comment to one pass without a list of its characters.
_SAMPLE = 4096


def _score(text: str, encoding: str) -> float:
    """Mean plausibility of the first :data:`_SAMPLE` non-ASCII characters of ``text`` read as ``encoding``."""
    weight = _gb_weight if encoding == "gb18030" else _sjis_weight
    total = 0.0
    count = 0
    for c in text:
        if ord(c) > 0x7F:
            total += weight(c)
            count += 1
            if count == _SAMPLE:
                break
    return total / count if count else 1.0


def _latin(data: bytes) -> tuple[str, str]:
    text = _strict(data, "cp1252")
    if text is not None:
        return text, "cp1252"
    return data.decode("latin-1"), "latin-1"


def decode_sgf_bytes(data: bytes) -> Decoded:
    """Decode the bytes of an SGF file to text.

    Returns a :class:`Decoded`. Never raises: every byte string decodes to something (Latin-1 as the
    last resort), and the ``warnings`` say when the result is a guess.
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        text = _strict(data, "utf-8")
        if text is not None:
            return Decoded(text, "utf-8", None)
    match = _CA_RE.search(data)
    declared = match.group(1).decode("ascii", "replace") if match else None
    warnings: list[str] = []
    if declared:
        codec = _codec_name(declared)
        if codec is None:
            warnings.append(f"unknown charset CA[{declared}]; guessing the encoding")
        else:
            text = _strict(data, codec)
            if text is not None:
                return Decoded(text, codec, declared)
            warnings.append(f"the file is not valid {declared} as CA says; guessing the encoding")
    text = _strict(data, "utf-8")
    if text is not None:
        return Decoded(text, "utf-8", declared, warnings)
    best: tuple[float, str, str] | None = None
    for candidate in _CJK_CANDIDATES:
        decoded = _strict(data, candidate)
        if decoded is None:
            continue
        score = _score(decoded, candidate)
        if best is None or score > best[0]:
            best = (score, candidate, decoded)
    if best is not None and best[0] > _THRESHOLD:
        warnings.append(f"no usable CA property; read as {best[1]}")
        return Decoded(best[2], best[1], declared, warnings)
    text, codec = _latin(data)
    if declared is None:
        # ISO-8859-1 is SGF's default, so this is not a guess worth a warning.
        return Decoded(text, codec, declared, warnings)
    warnings.append(f"read as {codec}")
    return Decoded(text, codec, declared, warnings)
