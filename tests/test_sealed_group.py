"""The group, the proofs and the card codec of the sealed deal, and what libsodium checks (pinned here)."""

from __future__ import annotations

import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.sealed import group as g
from net.sealed import xline as x
from net.sealed.codec import CardCodec, NotACard
from net.sealed.proofs import check_dleq, check_key, prove_dleq, prove_key

# A point of order 8 (from libsodium's own list of small-order encodings); the test checks its order.
T8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")


def point() -> bytes:
    return g.base(g.random_scalar())


def off_curve() -> bytes:
    """32 bytes that decode to no point of the curve (about half of all 32-byte strings do not)."""
    while True:
        b = secrets.token_bytes(31) + bytes([secrets.randbelow(128)])
        try:
            g.add(b, g.G)
        except g.BadPoint:
            return b


def test_the_torsion_point_has_order_eight() -> None:
    t2 = g.add(T8, T8)
    t4 = g.add(t2, t2)
    assert T8 != g.IDENTITY and t2 != g.IDENTITY and t4 != g.IDENTITY
    assert g.add(t4, t4) == g.IDENTITY


def test_libsodium_refuses_small_order_and_torsion_in_checks_and_products() -> None:
    P = point()
    marked = g.add(P, T8)  # addition does not check the subgroup: this is what a cheater could send
    assert g.is_point(P)
    for bad in (T8, g.IDENTITY, marked, g.add(T8, T8), bytes(32), b"\xec" + b"\xff" * 30 + b"\x7f"):
        assert not g.is_point(bad)
        with pytest.raises(g.BadPoint):
            g.check(bad)
        with pytest.raises(g.BadPoint):
            g.mul(g.random_scalar(), bad)
    # The mark survives adding subgroup points, so only a check finds it.
    assert not g.is_point(g.add(marked, point()))
    assert g.sub(marked, T8) == P


def test_non_canonical_and_off_curve_encodings_are_refused() -> None:
    off = off_curve()
    assert not g.is_point(off)
    # y = p + 1 is a non-canonical spelling of y = 1 (the identity).
    noncanon = (2**255 - 19 + 1).to_bytes(32, "little")
    assert not g.is_point(noncanon)
    with pytest.raises(g.BadPoint):
        g.mul(g.random_scalar(), noncanon)


def test_zero_scalars_are_refused() -> None:
    with pytest.raises(g.BadScalar):
        g.base(bytes(32))
    with pytest.raises(g.BadPoint):
        g.mul(bytes(32), g.G)
    with pytest.raises(g.BadScalar):
        g.check_scalar(g.scalar(0))
    with pytest.raises(g.BadScalar):
        g.check_scalar(g.L.to_bytes(32, "little"))


def test_a_long_sum_split_over_the_cores_is_the_plain_sum_and_refuses_what_add_refuses() -> None:
    pts = [point() for _ in range(3 * g.PARALLEL_MIN + 1)]  # long enough to be split
    plain = g.IDENTITY
    for q in pts:
        plain = g.add(plain, q)
    assert g.total(pts) == plain == g.total(list(reversed(pts)))
    assert g.total([]) == g.IDENTITY and g.total(pts[:1]) == pts[0]
    # The torsion mark survives a sum (add does not check the subgroup): the mask pass check leaves
    # it to the next multiplication, as before.
    assert g.total(pts[:-1] + [g.add(pts[-1], T8)]) == g.add(plain, T8)
    off = off_curve()
    for bad in (off, b"\x01" * 31, "x" * 32):
        for where in (0, len(pts) - 1):  # in the first chunk (this thread) or the last (a pool thread)
            with pytest.raises(g.BadPoint):
                g.total(pts[:where] + [bad] + pts[where:])  # type: ignore[list-item]


def test_multiplying_refuses_what_is_not_32_bytes() -> None:
    for k, q in ((bytes(31), g.G), (g.random_scalar(), g.G[:31]), (bytearray(g.random_scalar()), g.G)):
        with pytest.raises(g.BadPoint):
            g.mul(k, q)  # type: ignore[arg-type]


def test_hash_to_point_is_in_the_group_and_deterministic() -> None:
    a = g.hash_to_point(b"t", b"1")
    assert g.is_point(a) and a == g.hash_to_point(b"t", b"1") and a != g.hash_to_point(b"t", b"2")
    assert g.hash_to_point(b"t", b"ab", b"c") != g.hash_to_point(b"t", b"a", b"bc")


def test_a_key_proof_holds_only_for_its_key_and_context() -> None:
    x = g.random_scalar()
    X = g.base(x)
    proof = prove_key(b"ctx", x, X)
    assert check_key(b"ctx", X, proof)
    assert not check_key(b"other", X, proof)
    assert not check_key(b"ctx", point(), proof)
    assert not check_key(b"ctx", X, proof[:32] + g.random_scalar())
    assert not check_key(b"ctx", g.add(X, T8), proof)
    assert not check_key(b"ctx", X, b"short")


def test_an_equal_log_proof_holds_only_for_its_statement() -> None:
    x = g.random_scalar()
    H = point()
    X, Y = g.base(x), g.mul(x, H)
    proof = prove_dleq(b"ctx", x, None, X, H, Y)
    assert check_dleq(b"ctx", None, X, H, Y, proof)
    assert not check_dleq(b"ctx2", None, X, H, Y, proof)
    assert not check_dleq(b"ctx", None, X, H, g.add(Y, g.G), proof)
    assert not check_dleq(b"ctx", None, X, H, g.add(Y, T8), proof)  # a torsion-marked share
    # Another x for the second log: no proof made with either x verifies.
    Y2 = g.mul(g.random_scalar(), H)
    assert not check_dleq(b"ctx", None, X, H, Y2, prove_dleq(b"ctx", x, None, X, H, Y2))
    # With an explicit first base too.
    G1 = point()
    assert check_dleq(b"c", G1, g.mul(x, G1), H, Y, prove_dleq(b"c", x, G1, g.mul(x, G1), H, Y))


def test_cards_encode_and_decode_and_a_stranger_is_no_card() -> None:
    codec = CardCodec(108, b"classic")
    assert len(set(codec.points)) == 108
    assert all(codec.decode(codec.encode(i)) == i for i in range(108))
    with pytest.raises(NotACard):
        codec.decode(x.u_of(point()))
    # The same cards as Ed25519 points (the ElGamal alternative's), each the u-coordinate's point.
    edwards = CardCodec(108, b"classic", edwards=True)
    assert [x.u_of(p) for p in edwards.points] == list(codec.points) == x.us_of(edwards.points)
    assert edwards.restrict([3]).edwards and all(g.is_point(p) for p in edwards.points)
    sub = codec.restrict([3, 5, 8])
    assert sub.decode(codec.encode(5)) == 5
    with pytest.raises(NotACard, match="not one of the cards of this epoch"):
        sub.decode(codec.encode(4))
    with pytest.raises(NotACard):
        sub.encode(4)
    # Another deck's table decodes none of these points.
    assert not any(p in CardCodec(108, b"nomercy") for p in codec.points)


def test_a_decks_table_made_ahead_is_the_table_a_codec_finds_made() -> None:
    from net.sealed import codec as c

    tag = b"test/made-ahead/" + secrets.token_bytes(8)  # a deck no other test made in this process
    before = c._made.cache_info()
    t = c.make_ahead(40, tag)
    assert t is not None and c.make_ahead(40, tag) is None  # asked once: one thread
    t.join()
    assert c._made.cache_info().misses == before.misses + 1
    assert CardCodec(40, tag).points == c._made(tag, 40, False)
    assert c._made.cache_info().misses == before.misses + 1  # found made, not made again


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=1, max_value=2**252), st.integers(min_value=1, max_value=2**252))
def test_scalar_arithmetic_agrees_with_points(a: int, b: int) -> None:
    sa, sb = g.scalar(a), g.scalar(b)
    assert g.add(g.base(sa), g.base(sb)) == g.base(g.sadd(sa, sb)) or (a + b) % g.L == 0
    assert g.mul(sa, g.base(sb)) == g.base(g.smul(sa, sb))
    assert g.mul(g.sinv(sa), g.mul(sa, g.G)) == g.G


def test_opening_a_value_with_keys_in_integers_is_libsodiums_product_and_inverse() -> None:
    """``open_value`` multiplies the keys and inverts the product in Python's integers: the same
    canonical scalar as libsodium's ``scalar_mul`` and ``scalar_invert``, and a zero refused."""
    from net.sealed.masking import open_value

    card = x.u_of(g.hash_to_point(b"a card"))
    for n in (1, 2, 11):
        keys = [g.random_scalar() for _ in range(n)]
        prod = keys[0]
        for k in keys[1:]:
            prod = g.smul(prod, k)
        value = x.xmul(prod, card)  # the card under every key
        assert open_value(value, keys) == card
        assert open_value(value, keys[::-1]) == card
    with pytest.raises(g.BadScalar):
        open_value(card, [g.random_scalar(), bytes(32)])
    with pytest.raises(g.BadScalar):
        open_value(card, [b"short"])


# -- the x-line (net.sealed.xline) -------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=g.L - 1))
def test_x25519_multiplies_the_u_coordinate_as_ed25519_multiplies_the_point(k: int) -> None:
    P = g.hash_to_point(b"x", k.to_bytes(32, "little"))
    s = g.scalar(k)
    assert x.xmul(s, x.u_of(P)) == x.u_of(g.mul(s, P)) == x.xmul(k, x.u_of(P))
    c = x.clamped(k)
    if c is not None:  # the one candidate: k mod L, a multiple of 8, bit 254 set, bit 255 clear
        v = int.from_bytes(c, "little")
        assert v % g.L == k and v % 8 == 0 and 2**254 <= v < 2**255


def test_about_half_of_all_scalars_take_one_step_and_the_rest_two() -> None:
    ks = [int.from_bytes(g.random_scalar(), "little") for _ in range(2000)]
    one = sum(x.clamped(k) is not None for k in ks)
    assert 850 < one < 1150
    u = x.u_of(point())
    split = next(k for k in ks if x.clamped(k) is None)
    assert x.xmul(split, x.xmul(g.sinv(g.scalar(split)), u)) == u


def test_the_x_line_refuses_small_order_and_non_canonical_values_and_takes_the_twist() -> None:
    k = g.random_scalar()
    for small in (bytes(32), (1).to_bytes(32, "little"), (x.P - 1).to_bytes(32, "little"), x.u_of(T8)):
        with pytest.raises(g.BadPoint):
            x.xmul(k, small)
    for noncanon in (x.P.to_bytes(32, "little"), (x.P + 1).to_bytes(32, "little"), b"\xff" * 32, b"\x01" * 31):
        assert not x.is_canonical(noncanon)
        with pytest.raises(g.BadPoint):
            x.xmul(k, noncanon)
    with pytest.raises(g.BadScalar):
        x.xmul(g.L, x.u_of(point()))
    # About half of all field elements are on the twist: X25519 multiplies them (nothing of the key
    # leaks there); on_curve tells them apart, and cards are on the curve.
    twist = next(u for u in (i.to_bytes(32, "little") for i in range(2, 100)) if not x.on_curve(u))
    assert len(x.xmul(k, twist)) == 32
    assert all(x.on_curve(u) for u in CardCodec(20, b"t").points)


def test_a_torsion_mark_does_not_survive_a_multiplication() -> None:
    P = point()
    u, marked = x.u_of(P), x.u_of(g.add(P, T8))
    assert marked != u
    for _ in range(20):  # a scalar X25519 takes in one step or in two: each step a multiple of 8
        k = g.random_scalar()
        assert x.xmul(k, marked) == x.xmul(k, u)
