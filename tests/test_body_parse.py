"""The C-speed JSON path of ``body.read_json`` must agree with the strict parser on every text: the same
value where it answers, and no answer (so the strict parser reads it and words the error) where the
strict parser refuses: duplicate keys, NaN, 1e400, bad UTF-8, numbers orjson would read differently."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.api.body import _fast_parse, _strict_parse

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)), max_leaves=20)


def _agree(raw: bytes) -> None:
    fast = _fast_parse(raw)
    try:
        strict = _strict_parse(raw)
    except ValueError:   # refused by the strict parser (duplicate key, constant, bad UTF-8, ...)
        assert fast is None, raw
        return
    if fast is not None:
        assert fast == strict and json.dumps(fast) == json.dumps(strict), raw


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from([(",", ":"), (", ", ": "), (" ,", " :\n")]), st.booleans())
def test_fast_parse_agrees_with_the_strict_parser(value, seps, ascii_only):
    _agree(json.dumps(value, separators=seps, ensure_ascii=ascii_only).encode())


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=3), VALUES, min_size=1, max_size=4), st.data())
def test_a_repeated_key_never_passes_the_fast_path(obj, data):
    """A key written twice (anywhere in the text, with any value) sends the body to the strict parser."""
    key = data.draw(st.sampled_from(sorted(obj)))
    again = data.draw(VALUES)
    text = json.dumps(obj, ensure_ascii=False)
    dup = text[:-1] + ", " + json.dumps(key, ensure_ascii=False) + ": " + json.dumps(again, ensure_ascii=False) + "}"
    nested = '{"outer": ' + dup + ', "z": 1}'
    for raw in (dup.encode(), nested.encode()):
        assert _fast_parse(raw) is None
        with pytest.raises(ValueError, match="duplicate key"):
            _strict_parse(raw)


@pytest.mark.parametrize("raw", [b'{"a":1,"a":1}', b'{"a":"x y","a":"xy"}', b'[NaN]', b'[1e400]', b'[-0]', b'[2e3]',
                                 b'[18446744073709551616]', b'"\xff"', b'\xef\xbb\xbf{}', b'["a\\u0022"]',
                                 b'{"k": "3:1", "k": "2:1"}'])
def test_texts_the_fast_path_leaves_to_the_strict_parser(raw):
    assert _fast_parse(raw) is None
    _agree(raw)


@pytest.mark.parametrize("raw", [b'{"a": "x y", "b": [1, 2.5, -3]}', b'\n{ "k" :\t"3:1" }\n', '{"é":"€"}'.encode()])
def test_texts_the_fast_path_reads(raw):
    assert _fast_parse(raw) == _strict_parse(raw)


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_answers_are_written_as_the_standard_library_reads_them(value):
    """``codec.ENCODE`` (orjson, or the standard library for what orjson refuses) gives text that reads
    back to the value the standard library's own compact encoding gives."""
    from service.api.codec import ENCODE
    assert json.loads(ENCODE(value)) == json.loads(json.dumps(value, separators=(",", ":")))


def test_answers_with_integer_keys_or_huge_integers_are_still_written():
    from service.api.codec import ENCODE
    assert json.loads(ENCODE({1: "a", "n": 2 ** 70, "t": (1, 2)})) == {"1": "a", "n": 2 ** 70, "t": [1, 2]}


@pytest.mark.parametrize("raw", [b'{"a": "\\ud800"}', b'{"\\udc00": 1}', b'["x\\uD83Cy"]', b'[{"k": ["\\udfff"]}]'])
def test_an_unpaired_surrogate_is_refused(raw):
    """A string no UTF-8 text can carry (I-JSON, RFC 7493) is refused at the door, not left to fail when
    an answer or a replay digest is written."""
    assert _fast_parse(raw) is None
    with pytest.raises(ValueError, match="unpaired UTF-16 surrogate"):
        _strict_parse(raw)


@pytest.mark.parametrize("raw, value", [(b'["\\ud83c\\udfb2"]', ["\U0001F3B2"]), (b'["\\\\ud800"]', ["\\ud800"])])
def test_a_surrogate_pair_or_an_escaped_backslash_is_fine(raw, value):
    assert _strict_parse(raw) == value
