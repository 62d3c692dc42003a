"""pdfmeasure's own fast reader of content streams gives what pypdf's ContentStream gives."""

from __future__ import annotations

from pypdf.generic import ContentStream, DecodedStreamObject

from pdfmeasure import operations


def _plain(ops: list) -> list:
    """Operations with every number as a float (pypdf's NumberObject/FloatObject, ours int/float)."""
    return [([float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v for v in operands],
             bytes(op)) for operands, op in ops]


def _stream(data: bytes) -> DecodedStreamObject:
    stream = DecodedStreamObject()
    stream.set_data(data)
    return stream


def test_operations_read_what_pypdf_reads():
    data = (b"q 1 0 0 -1 0 841.889764 cm\n.5 -3. +2 w /a0 gs /x6 Do /Name#20Sp Do\n"
            b"[] 0.0 d [3 1.5] 0 d BT /f-0-0 1 Tf (Se\\361or\\355o \\(a\\)) Tj\n"
            b"[(A) -20.5 (B)] TJ <0041004200> Tj T* 2 TL 'x' ET\n"
            b"/P <</MCID 0 /Alt (x)>> BDC EMC 0 0 10 10 re W n Q")
    assert _plain(operations(_stream(data), None)) == _plain(ContentStream(_stream(data), None).operations)
    assert operations(_stream(data), None)[0] == ([], b"q")


def test_a_stream_with_a_comment_or_an_inline_image_is_read_by_pypdf():
    for data in (b"1 w % a comment 3 w\n2 w S", b"q BI /W 1 /H 1 /BPC 8 /CS /G ID \x80 EI Q"):
        assert _plain(operations(_stream(data), None)) == _plain(ContentStream(_stream(data), None).operations)
