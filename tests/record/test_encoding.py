"""Decoding SGF bytes: CA when it is right, a guess between UTF-8, GB18030, Shift-JIS and Latin-1 otherwise."""

from __future__ import annotations

import codecs

import pytest

from keima.record import load_record
from keima.record.encoding import decode_sgf_bytes

NAMES = {
    "gb18030": ["柯洁", "朴廷桓", "古力", "聂卫平", "黑中盘胜", "常昊"],
    "cp932": ["本因坊秀策", "井上幻庵因碩", "趙治勲", "小林光一", "ソフト", "中押し勝ち"],
}


def record(name: str, comment: str = "") -> str:
    return f"(;GM[1]FF[4]SZ[19]PB[{name}]PW[x]{f'C[{comment}]' if comment else ''};B[pd])"


@pytest.mark.parametrize("encoding", sorted(NAMES))
def test_short_cjk_names_without_ca(encoding: str) -> None:
    for name in NAMES[encoding]:
        data = record(name).encode(encoding)
        decoded = decode_sgf_bytes(data)
        assert decoded.encoding == encoding, name
        assert name in decoded.text
        assert load_record(data).info["PB"] == name


def test_utf8_with_and_without_bom_or_ca() -> None:
    text = record("Lee Sedol 이세돌")
    assert decode_sgf_bytes(text.encode()).encoding == "utf-8"
    bom = decode_sgf_bytes(codecs.BOM_UTF8 + text.encode())
    assert bom.encoding == "utf-8" and bom.text.startswith("(;")
    assert load_record(codecs.BOM_UTF8 + text.encode()).info["PB"] == "Lee Sedol 이세돌"


def test_declared_charset_is_used() -> None:
    text = "(;GM[1]FF[4]CA[Shift_JIS]SZ[9]PB[ソフト])"
    decoded = decode_sgf_bytes(text.encode("shift_jis"))
    assert decoded.encoding == "shift_jis" and decoded.declared == "Shift_JIS" and decoded.warnings == []
    euc = "(;GM[1]FF[4]CA[EUC-KR]SZ[9]PB[이세돌])"
    assert load_record(euc.encode("euc_kr")).info["PB"] == "이세돌"


def test_wrong_or_unknown_ca_falls_back_with_a_warning() -> None:
    wrong = "(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[古力])".encode("gb18030")
    decoded = decode_sgf_bytes(wrong)
    assert decoded.encoding == "gb18030" and "古力" in decoded.text
    assert any("not valid UTF-8" in w for w in decoded.warnings)
    unknown = decode_sgf_bytes(b"(;GM[1]CA[klingon]SZ[9]PB[Worf])")
    assert "unknown charset CA[klingon]" in unknown.warnings[0]
    assert decode_sgf_bytes(b"(;CA[UTF-16]SZ[9])").warnings  # not ASCII-compatible: cannot be right


def test_latin_text_is_not_mistaken_for_cjk() -> None:
    for name in ("Jérôme Hübner", "Françoise Lê", "Søren Ærø", "Ñandú"):
        data = record(name).encode("latin-1")
        decoded = decode_sgf_bytes(data)
        assert decoded.encoding in ("cp1252", "latin-1"), name
        assert name in decoded.text


def test_sjis_trail_bytes_that_look_like_sgf_syntax() -> None:
    # "ソ" is 0x83 0x5C in Shift-JIS: its second byte is a backslash. Decoding before parsing keeps it a letter.
    name = "ソフト表示"
    data = ("(;GM[1]FF[4]CA[Shift_JIS]SZ[9]PB[" + name + "];B[ee])").encode("shift_jis")
    assert b"\\" in data
    rec = load_record(data)
    assert rec.info["PB"] == name and len(rec.game.moves) == 1
