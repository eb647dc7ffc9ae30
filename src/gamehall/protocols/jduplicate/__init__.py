"""The JDuplicate protocol, 0.2 text and 1.0 XML over Java ``writeUTF`` frames (``jduplicate.md``).

- :mod:`.framing`: the 2-byte length prefix and the strict modified UTF-8 gate (§2);
- :mod:`.messages`: every client and server message as a typed value (§5, §6);
- :mod:`.schema`: how each message lies on the wire, shared by both syntaxes;
- :mod:`.v02`, :mod:`.v10`: reading and writing each syntax (§3.1, §3.2);
- :mod:`.errors`: the error codes (§7) and :class:`~.errors.WireError`;
- :mod:`.codec`: :class:`~.codec.JDuplicateCodec`, bytes to messages and back.
"""
