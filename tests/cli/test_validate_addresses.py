"""``validate`` on prompt files of one address: the one a registry serves, the others warned of."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cache_entries import entries, sign
from hostile_entries import forged

import wink_decl
from wink_decl import _checking
from wink_decl.compiler import PromptRegistry
from wink_decl.compiler import registry as registry_module
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic

Run = Callable[..., tuple[int, str, str]]

YAML = "key: x\nsections:\n  - {key: intro, title: Intro, template: Hello.}\n"
TOML = 'key = "x"\n\n[[sections]]\nkey = "intro"\ntitle = "Intro"\ntemplate = "Hello."\n'
MESSAGE = (
    "Prompt '{address}' is served from '{served}', which has the same address; this file is "
    "reached only by its path."
)
HINT = "give this file a key: (or ns:) of its own, or delete the one of the two not in use"


def unserved(path: str, served: str, address: str = "prompts/x") -> str:
    """The warning on ``path``, as the text form shows it."""
    return f"{path}: warning: {MESSAGE.format(address=address, served=served)}\n  hint: {HINT}\n"


ONE_WARNING = "2 files checked: 2 valid, 0 invalid (0 errors, 1 warning)\n"
TWINS = unserved("prompts/x.wink.yaml", "prompts/x.wink.toml") + ONE_WARNING


@pytest.fixture
def twins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``prompts/x.wink.yaml`` and ``prompts/x.wink.toml``, one prompt; the cwd is ``<tmp>``."""
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "x.wink.yaml").write_text(YAML)
    (tmp_path / "prompts" / "x.wink.toml").write_text(TOML)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    "argv",
    [
        ["prompts"],
        ["prompts/x.wink.yaml", "prompts/x.wink.toml"],
        ["prompts/x.wink.toml", "prompts/x.wink.yaml"],
        ["prompts/x.wink.toml", "other/../prompts/x.wink.yaml"],
        ["prompts", "--jobs", "2"],
        ["prompts", "--import-plugins"],
        ["prompts", "--import-plugins", "--cache-dir", "cache"],
    ],
    ids=["folder", "files", "files-reversed", "root-spelled-twice", "workers", "plugins", "both"],
)
def test_the_file_the_registry_does_not_serve_is_warned_of(
    cli: Run, twins: Path, argv: list[str]
) -> None:
    (twins / "other").mkdir()
    served = PromptRegistry("prompts").get("prompts/x").source
    shown = "other/../prompts/x.wink.yaml" if "other/../prompts/x.wink.yaml" in argv else None
    expected = TWINS if shown is None else unserved(shown, "prompts/x.wink.toml") + ONE_WARNING
    assert (served, cli("validate", *argv)) == ("prompts/x.wink.toml", (0, "", expected))


def as_a_new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """No registry kept in memory from an earlier run: results come from the disk or a compile."""
    monkeypatch.setattr(_checking, "_REGISTRIES", {})


def test_a_warm_cache_warns_alike_without_compiling(
    cli: Run, twins: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    as_a_new_process(monkeypatch)
    assert cli("validate", "prompts", "--cache-dir", "cache") == (0, "", TWINS)

    def no_compile(*args: object, **kwargs: object) -> None:
        raise AssertionError(args)

    monkeypatch.setattr(registry_module, "compile_file", no_compile)
    for argv in (["prompts"], ["prompts/x.wink.toml", "prompts/x.wink.yaml"]):
        as_a_new_process(monkeypatch)
        assert cli("validate", *argv, "--cache-dir", "cache") == (0, "", TWINS)


def test_a_kept_result_whose_artifact_names_no_prompt_has_no_address(
    cli: Run, twins: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an entry signed with the key reads so (``test_disk_cache_hostile``): it is believed."""
    as_a_new_process(monkeypatch)
    assert cli("validate", "prompts", "--cache-dir", "cache") == (0, "", TWINS)
    for entry in entries(twins / "cache"):
        sign(entry, forged([]))
    as_a_new_process(monkeypatch)
    assert cli("validate", "prompts", "--cache-dir", "cache") == (
        0,
        "",
        "2 files checked: 2 valid, 0 invalid\n",
    )


def test_one_key_in_files_of_other_names_and_folders_in_the_registrys_order(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Paths sort by their parts, as a registry lists them: 'a/x' before 'a-b/x' and 'b'."""
    shared = "ns: shared\n" + YAML
    for name in ("a-b/x.wink.yaml", "a/x.wink.yaml", "b.wink.yaml"):
        (tmp_path / "prompts" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "prompts" / name).write_text(shared)
    monkeypatch.chdir(tmp_path)
    served = PromptRegistry("prompts").get("shared/x").source
    files = ["prompts/b.wink.yaml", "prompts/a-b/x.wink.yaml", "prompts/a/x.wink.yaml"]
    expected = (
        unserved("prompts/a-b/x.wink.yaml", "prompts/a/x.wink.yaml", "shared/x")
        + unserved("prompts/b.wink.yaml", "prompts/a/x.wink.yaml", "shared/x")
        + "3 files checked: 3 valid, 0 invalid (0 errors, 2 warnings)\n"
    )
    assert (served, cli("validate", *files, "--root", "prompts")) == (
        "prompts/a/x.wink.yaml",
        (0, "", expected),
    )
    assert cli("validate", "prompts") == (0, "", expected)


def test_files_a_registry_would_not_compare_are_not_compared(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two roots are two registries; a file with errors is served by none."""
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.wink.yaml").write_text("ns: shared\n" + YAML)
    (tmp_path / "one" / "y.wink.yaml").write_text("ns: shared\nkey: x\nsections: 3\n")
    monkeypatch.chdir(tmp_path)
    assert cli("validate", "one", "two") == (
        1,
        "",
        "one/y.wink.yaml:3:11: error: 'sections' must be a list; found 3\n"
        "   3 | sections: 3\n"
        "     |           ^\n"
        "3 files checked: 2 valid, 1 invalid (1 error, 0 warnings)\n",
    )


def test_the_library_reports_what_the_command_does(twins: Path) -> None:
    for paths in (["prompts"], ["prompts/x.wink.toml", "prompts/x.wink.yaml"]):
        assert wink_decl.validate(paths) == [
            Diagnostic(
                MESSAGE.format(address="prompts/x", served="prompts/x.wink.toml"),
                None,
                DiagnosticCode.DUPLICATE_ADDRESS,
                severity="warning",
                hint=HINT,
                path="prompts/x.wink.yaml",
            )
        ]
