"""META payloads (specs/aah.md 3.3) and the version check (3.4)."""

from __future__ import annotations

import base64

import pytest

from gamehall.protocols.aah.meta import (
    SERVER_TAGS,
    MetaError,
    ServerMeta,
    client_meta_xml,
    decode_client_meta,
    decode_server_meta,
    encode_client_meta,
    encode_server_meta,
    server_meta_xml,
    version_refusal,
)

CLIENT_200 = "PG1ldGE+DQogIDx2ZXJzaW9uPjIwMDwvdmVyc2lvbj4NCjwvbWV0YT4="
SERVER_DEFAULTS_ONE_PLAYER = (
    "PG1ldGE+DQogIDx2ZXJzaW9uPjIwMDwvdmVyc2lvbj4NCiAgPHBsYXllcm1heD41PC9wbGF5ZXJtYXg+DQogIDxwbGF5ZXJzPjE8"
    "L3BsYXllcnM+DQogIDxydWxlc2V0PlN0YW5kYXJkPC9ydWxlc2V0Pg0KICA8YXBsaW1pdD44PC9hcGxpbWl0Pg0KICA8dGltZW91"
    "dD4zMDwvdGltZW91dD4NCjwvbWV0YT4="
)


def b64(xml: str | bytes) -> str:
    return base64.b64encode(xml.encode() if isinstance(xml, str) else xml).decode()


# -- building ------------------------------------------------------------------------------------


def test_server_meta_defaults_match_the_spec_base64() -> None:
    assert encode_server_meta(ServerMeta(players=1)) == SERVER_DEFAULTS_ONE_PLAYER


def test_server_meta_xml_layout() -> None:
    xml = server_meta_xml(ServerMeta(playermax=8, players=3, aplimit=12, timeout=45))
    assert xml == (
        "<meta>\r\n  <version>200</version>\r\n  <playermax>8</playermax>\r\n  <players>3</players>\r\n"
        "  <ruleset>Standard</ruleset>\r\n  <aplimit>12</aplimit>\r\n  <timeout>45</timeout>\r\n</meta>"
    )
    assert not xml.startswith("<?xml")


def test_client_meta_matches_the_0_2_0_bytes() -> None:
    assert encode_client_meta() == CLIENT_200
    assert client_meta_xml(200) == "<meta>\r\n  <version>200</version>\r\n</meta>"


def test_server_meta_escapes_text() -> None:
    meta = ServerMeta(ruleset="A & <B>")
    assert decode_server_meta(encode_server_meta(meta)) == meta


# -- parsing a client META -------------------------------------------------------------------------


def test_client_meta_exact_bytes() -> None:
    assert decode_client_meta(CLIENT_200) == 200


@pytest.mark.parametrize(
    "xml",
    [
        "<meta><version>200</version></meta>",
        '<?xml version="1.0" encoding="utf-8"?>\n<meta>\n\t<version> 200 </version>\n</meta>\n',
        "\ufeff<meta>\n  <version>200</version>\n  <nickname>x</nickname>\n</meta>",
        "<meta>\r\n\r\n   <version>\r\n200\r\n</version></meta>",
    ],
)
def test_client_meta_any_whitespace_and_optional_declaration(xml: str) -> None:
    assert decode_client_meta(b64(xml)) == 200


@pytest.mark.parametrize(
    "argument",
    [
        "",  # empty: no XML at all
        "not base64!",
        "PG1ldGE+",  # "<meta>" only: broken XML
        "PG1ldGE+DQogIDx2ZXJzaW9uPjIwMDwvdmVyc2lvbj4NCjwvbWV0YT4",  # padding missing
        "é",
        b64("<meta></meta>"),
        b64("<meta><version></version></meta>"),
        b64("<meta><version>two hundred</version></meta>"),
        b64("<meta><version>-200</version></meta>"),
        b64("<meta><version>2.0</version></meta>"),
        b64("<meta><version>12345678901</version></meta>"),
        b64("<other><version>200</version></other>"),
        b64("<meta><sub><version>200</version></sub></meta>"),
        b64(b"<meta><version>200</version></meta>\xff"),
    ],
)
def test_client_meta_malformed(argument: str) -> None:
    with pytest.raises(MetaError):
        decode_client_meta(argument)


def test_meta_error_is_a_value_error() -> None:
    assert issubclass(MetaError, ValueError)


@pytest.mark.parametrize(
    "xml",
    [
        '<!DOCTYPE meta [<!ENTITY v "200">]><meta><version>&v;</version></meta>',
        '<!DOCTYPE meta SYSTEM "http://127.0.0.1/x.dtd"><meta><version>200</version></meta>',
        '<!DOCTYPE m [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><meta><version>&b;</version></meta>',
    ],
)
def test_client_meta_dtd_and_entities_forbidden(xml: str) -> None:
    with pytest.raises(MetaError):
        decode_client_meta(b64(xml))


# -- parsing a server META (what the legacy client checks) -----------------------------------------


def test_server_meta_roundtrip_and_spec_string() -> None:
    assert decode_server_meta(SERVER_DEFAULTS_ONE_PLAYER) == ServerMeta(players=1)
    meta = ServerMeta(version=201, playermax=3, players=2, aplimit=100, timeout=15)
    assert decode_server_meta(encode_server_meta(meta)) == meta


@pytest.mark.parametrize("missing", SERVER_TAGS)
def test_server_meta_missing_tag(missing: str) -> None:
    xml = server_meta_xml(ServerMeta()).replace(f"<{missing}>", "<gone>").replace(f"</{missing}>", "</gone>")
    with pytest.raises(MetaError, match=missing):
        decode_server_meta(b64(xml))


@pytest.mark.parametrize("repeated", SERVER_TAGS)
def test_server_meta_repeated_tag(repeated: str) -> None:
    xml = server_meta_xml(ServerMeta()).replace("</meta>", f"<{repeated}>1</{repeated}></meta>")
    with pytest.raises(MetaError, match="repeats"):
        decode_server_meta(b64(xml))


# -- 3.4 version check -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "refusal"),
    [
        (200, None),
        (100, None),
        (199, None),
        (299, None),
        (201, None),
        (300, "Outdated server."),
        (10000, "Outdated server."),
        (10200, "Outdated server."),
        (0, "Outdated client."),
        (99, "Outdated client."),
    ],
)
def test_version_check(version: int, refusal: str | None) -> None:
    assert version_refusal(version) == refusal


def test_acceptance_item_7_via_the_wire_payload() -> None:
    assert version_refusal(decode_client_meta(encode_client_meta(300))) == "Outdated server."
    assert version_refusal(decode_client_meta(encode_client_meta(0))) == "Outdated client."
    assert version_refusal(decode_client_meta(encode_client_meta(100))) is None
    assert version_refusal(decode_client_meta(encode_client_meta(200))) is None
