"""``Limits``: every bound positive, settable by name, applied by the command line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from wink_decl.cli import main
from wink_decl.compiler import PromptRegistry, compile_file
from wink_decl.errors import WinkDeclError
from wink_decl.limits import (
    DEFAULT_LIMITS,
    MAX_DEPTH_CEILING,
    Limits,
    LimitSettingError,
    raise_setting,
)
from wink_decl.loader import load_text

PROMPT = "key: tiny\nsections:\n  - {key: task, title: Task, template: Do it.}\n"


def test_the_defaults_and_the_names() -> None:
    assert Limits() == DEFAULT_LIMITS
    assert Limits.names() == (
        "max_bytes",
        "max_depth",
        "max_nodes",
        "max_key_length",
        "max_include_depth",
        "max_include_files",
        "max_sections",
        "max_params_file_bytes",
        "max_dataset_bytes",
        "max_cases",
    )
    assert (DEFAULT_LIMITS.max_bytes, DEFAULT_LIMITS.max_depth) == (1_000_000, 64)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"max_bytes": 0}, "Limits.max_bytes must be a whole number of at least 1"),
        ({"max_nodes": True}, "Limits.max_nodes must be a whole number of at least 1"),
        ({"max_sections": 2.5}, "Limits.max_sections must be a whole number of at least 1"),
        ({"max_depth": MAX_DEPTH_CEILING + 1}, "Limits.max_depth must be at most 200"),
    ],
    ids=["zero", "bool", "float", "too-deep"],
)
def test_every_limit_is_a_positive_whole_number(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        Limits(**changes)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def test_settings_apply_by_name_and_the_last_one_wins() -> None:
    limits = DEFAULT_LIMITS.with_settings(
        ["max_bytes=5_000_000", " max_depth = 100", "max_bytes=2000000"]
    )
    assert (limits.max_bytes, limits.max_depth, limits.max_nodes) == (2_000_000, 100, 200_000)
    assert DEFAULT_LIMITS.with_settings([]) is DEFAULT_LIMITS


@pytest.mark.parametrize(
    ("setting", "message", "name"),
    [
        ("max_bytes", "limit 'max_bytes' is not NAME=VALUE", "max_bytes"),
        ("max_byts=3", "limit 'max_byts=3' names no limit", "max_byts"),
        (
            "max_bytes=lots",
            "limit 'max_bytes=lots' must be a whole number of at least 1",
            "max_bytes",
        ),
        ("max_bytes=-1", "limit 'max_bytes=-1' must be a whole number of at least 1", "max_bytes"),
        ("max_depth=300", "limit 'max_depth=300' must be at most 200", "max_depth"),
    ],
    ids=["no-value", "unknown", "not-a-number", "negative", "beyond-the-ceiling"],
)
def test_a_setting_that_cannot_apply_says_why(setting: str, message: str, name: str) -> None:
    with pytest.raises(LimitSettingError) as info:
        DEFAULT_LIMITS.with_settings([setting])
    assert (str(info.value), info.value.name, info.value.setting) == (message, name, setting)
    assert isinstance(info.value, WinkDeclError)
    assert isinstance(info.value, ValueError)


def test_the_compiler_and_the_registry_apply_the_limits(tmp_path: Path) -> None:
    (tmp_path / "tiny.wink.yaml").write_text(PROMPT)
    small = Limits(max_bytes=20)
    assert compile_file(tmp_path / "tiny.wink.yaml").ok
    result = compile_file(tmp_path / "tiny.wink.yaml", limits=small)
    assert [d.code for d in result.diagnostics] == ["too-large"]
    registry = PromptRegistry(tmp_path, limits=small)
    assert [d.code for d in registry.check(tmp_path / "tiny.wink.yaml").diagnostics] == [
        "too-large"
    ]


def test_a_disk_cache_keeps_results_apart_by_limits(tmp_path: Path) -> None:
    (tmp_path / "tiny.wink.yaml").write_text(PROMPT)
    cache = tmp_path / "cache"
    assert PromptRegistry(tmp_path, cache_dir=cache).check(tmp_path / "tiny.wink.yaml").ok
    strict = PromptRegistry(tmp_path, cache_dir=cache, limits=Limits(max_bytes=20))
    assert not strict.check(tmp_path / "tiny.wink.yaml").ok


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Run:
    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def test_the_command_line_raises_and_lowers_limits(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.wink.yaml").write_text(PROMPT)
    assert cli("validate", "tiny.wink.yaml")[0] == 0
    status, _, err = cli("validate", "tiny.wink.yaml", "--limit", "max_bytes=20")
    assert status == 1
    assert err.startswith("tiny.wink.yaml:1:1: error: This file is ")
    assert "more than the limit of 20 bytes." in err
    assert cli("render", "tiny.wink.yaml", "--limit", "max_bytes=20")[0] == 1
    assert cli("render", "tiny.wink.yaml", "--limit", "max_bytes=2000")[0] == 0


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            "max_byts=5",
            "wink-decl: error: --limit max_byts=5: names no limit\n"
            "  hint: did you mean 'max_bytes'?\n",
        ),
        (
            "max_bytes=big",
            "wink-decl: error: --limit max_bytes=big: must be a whole number of at least 1\n"
            "  hint: write it as NAME=VALUE with NAME one of max_bytes, max_depth, max_nodes, "
            "max_key_length, max_include_depth, max_include_files, max_sections, "
            "max_params_file_bytes, max_dataset_bytes, max_cases\n",
        ),
    ],
    ids=["misspelled", "not-a-number"],
)
def test_a_limit_setting_that_cannot_apply_is_a_usage_error(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.wink.yaml").write_text(PROMPT)
    assert cli("validate", "tiny.wink.yaml", "--limit", setting) == (2, "", message)


@pytest.mark.parametrize(
    ("value", "needed", "setting"),
    [
        (1_000_000, None, "--limit max_bytes=2000000"),
        (1_000_000, 1_000_001, "--limit max_bytes=2000000"),
        (1_000_000, 2_000_000, "--limit max_bytes=2000000"),
        (1_000_000, 2_500_000, "--limit max_bytes=4000000"),
        (40, 110, "--limit max_bytes=160"),
    ],
    ids=["unknown", "one-past", "exactly-double", "two-and-a-half", "nearly-three-times"],
)
def test_the_setting_suggested_allows_what_the_input_needs(
    value: int, needed: int | None, setting: str
) -> None:
    assert raise_setting("max_bytes", value, needed) == setting


@pytest.mark.parametrize(
    ("size", "setting"),
    [(1_000_001, "max_bytes=2000000"), (2_500_000, "max_bytes=4000000")],
    ids=["just-past", "two-and-a-half-megabytes"],
)
def test_a_file_past_max_bytes_is_told_a_limit_that_fits_it(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int, setting: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.wink.yaml").write_text(PROMPT + "#" * (size - len(PROMPT) - 1) + "\n")
    assert cli("validate", "big.wink.yaml") == (
        1,
        "",
        f"big.wink.yaml:1:1: error: This file is {size:,} bytes long, more than the limit of "
        "1,000,000 bytes.\n"
        "  expected: a file of at most 1,000,000 bytes\n"
        "  hint: split the prompt into several smaller files, or allow more with "
        f"--limit {setting}\n"
        "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)\n",
    )
    assert cli("validate", "big.wink.yaml", "--limit", setting) == (
        0,
        "",
        "1 file checked: 1 valid, 0 invalid\n",
    )


def test_past_its_ceiling_max_depth_suggests_nothing() -> None:
    assert raise_setting("max_depth", 150, 250) is None
    assert raise_setting("max_depth", 100, 200) == f"--limit max_depth={MAX_DEPTH_CEILING}"


def test_a_diagnostic_says_how_to_raise_its_limit() -> None:
    assert raise_setting("max_bytes", 1_000_000) == "--limit max_bytes=2000000"
    assert raise_setting("max_depth", 150) == f"--limit max_depth={MAX_DEPTH_CEILING}"
    assert raise_setting("max_depth", MAX_DEPTH_CEILING) is None
    deep = "a: " + "[" * 300 + "]" * 300 + "\n"
    result = load_text(deep, path="p", format="yaml", limits=Limits(max_depth=MAX_DEPTH_CEILING))
    assert [d.hint for d in result.diagnostics] == [
        "flatten the structure: nest mappings and lists less deeply"
    ]
