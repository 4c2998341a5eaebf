"""Files and bytes: formats by extension, encodings, size, and files that cannot be read."""

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl.diagnostics import render_text
from wink_decl.loader import Limits, detect_format, load_file, load_text, read_stamped
from wink_decl.loader.api import _format_by_splitext  # pyright: ignore[reportPrivateUsage]


def lines(*parts: str) -> str:
    return "\n".join(parts)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("review.wink.yaml", "yaml"),
        ("review.wink.yml", "yaml"),
        ("review.wink.toml", "toml"),
        ("REVIEW.WINK.YAML", "yaml"),
        ("notes.Toml", "toml"),
        ("plain.yaml", "yaml"),
        ("review.wink.json", None),
        ("review.wink", None),
        ("yaml", None),
        ("archive.yaml.bak", None),
    ],
    ids=lambda value: str(value),
)
def test_detect_format_by_extension(name: str, expected: str | None) -> None:
    assert detect_format(name) == expected
    assert detect_format(Path("prompts") / name) == expected


@settings(max_examples=300, deadline=None)  # a busy 2-core CI machine is not what this measures
@given(
    st.lists(
        st.sampled_from(["a", "A", ".", "..", "/", "yaml", "YAML", "toml", "yml", "\\", "x.y"]),
        max_size=6,
    ).map("".join)
)
def test_detect_format_reads_a_plain_suffix_as_splitext_does(name: str) -> None:
    """The suffix read without ``splitext`` is the one it finds, for any name."""
    for written in (name, name + ".yaml", name + ".toml", name + ".YAML"):
        assert detect_format(written) == _format_by_splitext(written)


def test_names_ending_in_yaml_that_splitext_reads_otherwise() -> None:
    assert [detect_format(n) for n in (".yaml", "a/.yaml", "a/..toml", "a..yaml", "a.yaml")] == [
        None,
        None,
        None,
        "yaml",
        "yaml",
    ]


def test_load_file_reads_yaml_and_toml(tmp_path: Path) -> None:
    (tmp_path / "a.wink.yaml").write_text("key: a\n", encoding="utf-8")
    (tmp_path / "b.wink.toml").write_text('key = "b"\n', encoding="utf-8")
    yaml_result = load_file(tmp_path / "a.wink.yaml")
    toml_result = load_file(str(tmp_path / "b.wink.toml"), display_path="prompts/b.wink.toml")
    assert yaml_result.file is not None
    assert toml_result.file is not None
    assert (yaml_result.file.path, yaml_result.file.format) == (
        os.fspath(tmp_path / "a.wink.yaml"),
        "yaml",
    )
    assert yaml_result.file.data == {"key": "a"}
    assert (toml_result.file.path, toml_result.file.format, toml_result.file.text) == (
        "prompts/b.wink.toml",
        "toml",
        'key = "b"\n',
    )
    assert toml_result.file.source_map.path == "prompts/b.wink.toml"


def test_unknown_extension_is_reported_without_reading(tmp_path: Path) -> None:
    result = load_file(tmp_path / "missing.wink.json", display_path="prompts/review.wink.json")
    assert result.file is None
    assert render_text(result.diagnostics) == lines(
        "prompts/review.wink.json: error: This file is neither YAML nor TOML: its name does not "
        "end in .yaml, .yml or .toml.",
        "  expected: a name such as review.wink.yaml or review.wink.toml",
        "  hint: rename the file so that it ends in .wink.yaml or .wink.toml",
    )
    assert [(d.code, d.span, d.file) for d in result.diagnostics] == [
        ("unknown-extension", None, "prompts/review.wink.json")
    ]


def test_missing_file(tmp_path: Path) -> None:
    result = load_file(tmp_path / "gone.wink.yaml", display_path="prompts/gone.wink.yaml")
    assert result.file is None
    assert render_text(result.diagnostics) == lines(
        "prompts/gone.wink.yaml: error: This file cannot be read: no such file or directory.",
        "  expected: a prompt file that exists and can be read",
        "  hint: check the path and the file's permissions",
    )
    assert result.diagnostics[0].code == "unreadable"


def test_directory_instead_of_file(tmp_path: Path) -> None:
    folder = tmp_path / "folder.wink.toml"
    folder.mkdir()
    result = load_file(folder, display_path="folder.wink.toml")
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("unreadable", "This file cannot be read: it is a folder, not a regular file.")
    ]


def test_unreadable_without_a_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OSError

    (tmp_path / "a.wink.yaml").write_text("key: a\n")
    monkeypatch.setattr("os.open", refuse)
    result = load_file(tmp_path / "a.wink.yaml", display_path="a.wink.yaml")
    assert [d.message for d in result.diagnostics] == ["This file cannot be read: oSError."]


def test_file_larger_than_the_limit_is_not_read_and_its_true_size_is_told(
    tmp_path: Path,
) -> None:
    path = tmp_path / "big.wink.yaml"
    path.write_bytes(b"key: " + b"x" * 100 + b"\n")
    result = load_file(path, display_path="big.wink.yaml", limits=Limits(max_bytes=50))
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("too-large", "This file is 106 bytes long, more than the limit of 50 bytes.")
    ]
    assert result.text is None  # nothing was read


def test_read_stamped_gives_the_bytes_and_the_state_they_were_read_in(tmp_path: Path) -> None:
    path = tmp_path / "a.wink.yaml"
    path.write_bytes(b"key: a\n")
    info = path.stat()
    assert read_stamped(path) == (b"key: a\n", (info.st_mtime_ns, info.st_size))
    path.write_bytes(b"")
    assert read_stamped(path)[0] == b""


BYTE_MISTAKES = [
    pytest.param(
        b"\xef\xbb\xbfkey: review\n",
        "yaml",
        lines(
            "p:1:1: error: The file starts with a byte-order mark; save it as UTF-8 without BOM.",
            "  expected: UTF-8 text without a byte-order mark",
            "   1 | \ufeffkey: review",
            "     | ^",
            "  hint: in your editor, choose the encoding 'UTF-8' (not 'UTF-8 with BOM') and save",
        ),
        id="bom-yaml",
    ),
    pytest.param(
        b'\xef\xbb\xbfkey = "review"\ntitle "x"\n',
        "toml",
        lines(
            "p:1:1: error: The file starts with a byte-order mark; save it as UTF-8 without BOM.",
            "  expected: UTF-8 text without a byte-order mark",
            '   1 | \ufeffkey = "review"',
            "     | ^",
            "  hint: in your editor, choose the encoding 'UTF-8' (not 'UTF-8 with BOM') and save",
            "p:2:7: error: This line has a key but no '=' after it.",
            '  expected: key = value, such as title = "Review"',
            '   2 | title "x"',
            "     |       ^",
            "  hint: write '=' between the key and its value, and put text in double quotes",
        ),
        id="bom-and-more-toml",
    ),
    pytest.param(
        "key: review\ntitle: caf\xe9 \xff\n".encode("latin-1"),
        "yaml",
        lines(
            "p:2:11: error: This file is not valid UTF-8 text (byte 0xe9).",
            "  expected: UTF-8 text",
            "   2 | title: caf\ufffd \ufffd",
            "     |           ^",
            "  hint: save the file as UTF-8 in your editor",
        ),
        id="latin-1",
    ),
    pytest.param(
        b"key: review\r\n\r\n\x80",
        "yaml",
        lines(
            "p:3:1: error: This file is not valid UTF-8 text (byte 0x80).",
            "  expected: UTF-8 text",
            "   3 | \ufffd",
            "     | ^",
            "  hint: save the file as UTF-8 in your editor",
        ),
        id="bad-byte-after-line-breaks",
    ),
    pytest.param(
        b"key: review\n",
        "yaml",
        lines(
            "p:1:1: error: This file is 12 bytes long, more than the limit of 4 bytes.",
            "  expected: a file of at most 4 bytes",
            "   1 | key: review",
            "     | ^",
            "  hint: split the prompt into several smaller files"
            ", or allow more with --limit max_bytes=16",
        ),
        id="too-large-bytes",
    ),
]


@pytest.mark.parametrize(("data", "file_format", "expected"), BYTE_MISTAKES)
def test_byte_mistakes(data: bytes, file_format: str, expected: str) -> None:
    limits = Limits(max_bytes=4) if "limit of 4 bytes" in expected else Limits()
    result = load_text(
        data, path="p", format="yaml" if file_format == "yaml" else "toml", limits=limits
    )
    assert result.file is None
    text = data.decode("utf-8", errors="replace")
    assert render_text(result.diagnostics, {"p": text}) == expected


TEXT_MISTAKES = [
    pytest.param(
        "\ufeffkey: review\n",
        lines(
            "p:1:1: error: The file starts with a byte-order mark; save it as UTF-8 without BOM.",
            "  expected: UTF-8 text without a byte-order mark",
            "   1 | \ufeffkey: review",
            "     | ^",
            "  hint: in your editor, choose the encoding 'UTF-8' (not 'UTF-8 with BOM') and save",
        ),
        id="bom-in-text",
    ),
    pytest.param(
        "key: review\ntitle: a\udcffb\n",
        lines(
            "p:2:9: error: This text contains U+DCFF, which is not a character and cannot be "
            "saved as UTF-8.",
            "  expected: UTF-8 text",
            "   2 | title: a\udcffb",
            "     |         ^",
            "  hint: remove the character; it usually comes from a broken copy and paste",
        ),
        id="lone-surrogate",
    ),
    pytest.param(
        "\udcff",
        lines(
            "p:1:1: error: This text contains U+DCFF, which is not a character and cannot be "
            "saved as UTF-8.",
            "  expected: UTF-8 text",
            "   1 | \udcff",
            "     | ^",
            "  hint: remove the character; it usually comes from a broken copy and paste",
        ),
        id="surrogate-first",
    ),
    pytest.param(
        "é" * 10,
        lines(
            "p:1:1: error: This file is 20 bytes long, more than the limit of 16 bytes.",
            "  expected: a file of at most 16 bytes",
            "   1 | " + "é" * 10,
            "     | ^",
            "  hint: split the prompt into several smaller files"
            ", or allow more with --limit max_bytes=32",
        ),
        id="too-large-counts-bytes",
    ),
]


@pytest.mark.parametrize(("text", "expected"), TEXT_MISTAKES)
def test_text_mistakes(text: str, expected: str) -> None:
    result = load_text(text, path="p", format="yaml", limits=Limits(max_bytes=16))
    assert result.file is None
    assert render_text(result.diagnostics, {"p": text}) == expected


def test_bytes_that_are_fine_load_like_text() -> None:
    text = "key: café\n"
    from_bytes = load_text(text.encode("utf-8"), path="p", format="yaml")
    from_text = load_text(text, path="p", format="yaml")
    assert from_bytes.file is not None
    assert from_text.file is not None
    assert from_bytes.file.data == from_text.file.data == {"key": "café"}
    assert from_bytes.file.text == text


def test_utf_16_gets_its_own_hint() -> None:
    data = "key = 1\n".encode("utf-16")
    result = load_text(data, path="p", format="toml")
    text = data.decode("utf-8", errors="replace")
    assert render_text(result.diagnostics, {"p": text}) == lines(
        "p:1:1: error: This file is not valid UTF-8 text (byte 0xff).",
        "  expected: UTF-8 text",
        "   1 | \ufffd\ufffdk\\x00e\\x00y\\x00 \\x00=\\x00 \\x001\\x00",  # NULs escaped
        "     | ^",
        "  hint: the file looks like UTF-16; save it as UTF-8 in your editor",
    )
