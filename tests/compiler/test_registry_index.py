"""PromptRegistry's address index: ``get`` compiles only the files that can hold the address.

The index (file -> the address its ``key``/``ns`` lines claim, and address -> the first file
claiming it, kept on disk with ``cache_dir``) is a hint: ``get`` compiles what it names and
checks the address before serving it. Compiles are counted by watching ``compile_file``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from cache_entries import CompileCounter, body_of, entries, sign
from compiler_support import compiled, prompt, rewrite, write
from concurrency import run_python, run_threads

from wink_decl.compiler import CompiledPrompt, PromptRegistry, find_prompt_files
from wink_decl.compiler._disk_cache import INDEX_FORMAT, DiskCache
from wink_decl.diagnostics import DiagnosticError
from wink_decl.limits import Limits
from wink_decl.loader import regular_files
from wink_decl.plugins import PluginCatalog

UNDECLARED = "    template: Hi $who.\n"
"""A section body with a mistake: the file claims its key cleanly but does not compile."""


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> CompileCounter:
    return CompileCounter(monkeypatch)


def title(found: CompiledPrompt) -> str:
    return found.template.nodes[0].section.title


def unknown(registry: PromptRegistry, address: str) -> str:
    with pytest.raises(DiagnosticError) as info:
        registry.get(address)
    assert [d.code for d in info.value.diagnostics] == ["unknown-prompt"]
    return str(info.value)


def index_entry(cache: Path) -> Path:
    """The one entry in ``cache`` that holds the address index."""
    (found,) = [entry for entry in entries(cache) if body_of(entry).get("format") == INDEX_FORMAT]
    return found


# -- one get compiles one file ------------------------------------------------------------


def test_opening_and_one_get_compiles_only_the_file_asked_for(
    here: Path, catalog: PluginCatalog, counter: CompileCounter
) -> None:
    write(here, "a.wink.yaml", prompt("a"))
    write(here, "b.wink.toml", 'key = "b"\n[[sections]]\ntitle = "B"\n')
    write(here, "broken.wink.yaml", prompt("broken", extra=UNDECLARED))
    write(here, "odd.wink.yaml", prompt("&k odd"))  # an anchor: the reading is not sure
    write(here, "sub/c.wink.yaml", prompt("c"))
    registry = PromptRegistry(".", catalog=catalog)

    assert title(registry.get("prompts/b")) == "B"  # the broken sibling is never compiled
    assert counter.calls == ["b.wink.toml"]  # the files sorted after it are not read
    assert registry.get("sub/c").source == "sub/c.wink.yaml"
    assert registry.get("prompts/odd").source == "odd.wink.yaml"  # compiled already
    assert counter.calls == ["b.wink.toml", "odd.wink.yaml", "sub/c.wink.yaml"]


def test_each_file_is_read_once_to_index_it_and_serve_it(
    here: Path, catalog: PluginCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bytes read for a file's claim are the bytes compiled: no second read."""
    reads: list[int] = []
    real = regular_files.read_up_to

    def counted(descriptor: int, size: int, wanted: int) -> bytes:
        reads.append(size)
        return real(descriptor, size, wanted)

    monkeypatch.setattr(regular_files, "read_up_to", counted)
    write(here, "a.wink.yaml", prompt("a"))
    write(here, "b.wink.toml", 'key = "b"\n[[sections]]\ntitle = "B"\n')
    write(here, "odd.wink.yaml", prompt("&k odd"))  # not sure of its claim: compiled as read
    registry = PromptRegistry(".", catalog=catalog)
    assert title(registry.get("prompts/b")) == "B"
    sizes = [(here / name).stat().st_size for name in ("a.wink.yaml", "b.wink.toml")]
    assert sorted(reads) == sorted(sizes)  # odd.wink.yaml sorts after b: not read yet
    assert registry.get("prompts/odd").source == "odd.wink.yaml"  # compiled as read for it
    assert reads[2:] == [(here / "odd.wink.yaml").stat().st_size]
    assert registry.get("prompts/a").source == "a.wink.yaml"  # its claim was read: once more
    assert len(reads) == 4


def test_without_a_cache_folder_the_files_after_the_one_served_are_not_read(
    here: Path, catalog: PluginCatalog, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The first file in sorted order claiming the address serves it; the rest wait."""
    reads: list[int] = []
    real = regular_files.read_up_to

    def counted(descriptor: int, size: int, wanted: int) -> bytes:
        reads.append(size)
        return real(descriptor, size, wanted)

    monkeypatch.setattr(regular_files, "read_up_to", counted)
    write(here, "a.wink.yaml", prompt("same", title="A"))
    write(here, "b.wink.yaml", prompt("same", title="B"))  # the same address, sorted after
    write(here, "c.wink.yaml", prompt("c"))
    size = (here / "a.wink.yaml").stat().st_size
    assert title(PromptRegistry(".", catalog=catalog).get("prompts/same")) == "A"
    assert reads == [size]
    reads.clear()
    cached = PromptRegistry(".", catalog=catalog, cache_dir=tmp_path / "cache")
    assert title(cached.get("prompts/same")) == "A"  # the whole index is written: all read
    names = ("a.wink.yaml", "b.wink.yaml", "c.wink.yaml")
    assert sorted(reads) == sorted((here / name).stat().st_size for name in names)
    assert body_of(index_entry(tmp_path / "cache"))["files"] == {
        "prompts/same": "a.wink.yaml",
        "prompts/c": "c.wink.yaml",
    }


def test_with_a_cache_folder_a_broken_file_is_reported_after_every_file_is_read(
    here: Path, catalog: PluginCatalog, tmp_path: Path
) -> None:
    write(here, "a.wink.yaml", prompt("a"))
    write(here, "big.wink.yaml", prompt("big", extra="    template: " + "x" * 400 + "\n"))
    write(here, "broken.wink.yaml", prompt("broken", extra=UNDECLARED))
    cache = tmp_path / "cache"
    registry = PromptRegistry(".", catalog=catalog, cache_dir=cache, limits=Limits(max_bytes=300))
    assert unknown(registry, "prompts/broken") == (
        ".: error: No prompt 'prompts/broken' under '.'. Did you mean 'prompts/a'?"
    )
    assert body_of(index_entry(cache))["files"] == {
        "prompts/a": "a.wink.yaml",
        "prompts/broken": "broken.wink.yaml",
    }


def test_with_a_cache_folder_an_index_that_did_not_change_is_not_written_again(
    here: Path, catalog: PluginCatalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(here, "a.wink.yaml", prompt("a"))
    written: list[bytes] = []
    real_write = DiskCache.write_signed

    def counted(disk: DiskCache, key: str, data: bytes) -> None:
        written.append(data)
        real_write(disk, key, data)

    monkeypatch.setattr(DiskCache, "write_signed", counted)
    registry = PromptRegistry(".", catalog=catalog, cache_dir=tmp_path / "cache")
    for _ in range(2):  # each unknown address reads every file and makes the same index
        assert unknown(registry, "prompts/b") == (
            ".: error: No prompt 'prompts/b' under '.'. Did you mean 'prompts/a'?"
        )
    indexes = [body for body in map(json.loads, written) if body.get("format") == INDEX_FORMAT]
    assert indexes == [{"files": {"prompts/a": "a.wink.yaml"}, "format": INDEX_FORMAT}]


def test_a_broken_file_is_reported_as_before_when_its_address_is_asked_for(
    here: Path, catalog: PluginCatalog
) -> None:
    """Neither found nor known: every file is compiled, and the report is what it was."""
    write(here, "a.wink.yaml", prompt("a"))
    write(here, "broken.wink.yaml", prompt("broken", extra=UNDECLARED))
    registry = PromptRegistry(".", catalog=catalog)
    assert unknown(registry, "prompts/broken") == (
        ".: error: No prompt 'prompts/broken' under '.'. Did you mean 'prompts/a'?"
    )
    assert registry.get("prompts/a").source == "a.wink.yaml"
    rewrite(here / "a.wink.yaml", prompt("a", extra=UNDECLARED))
    with pytest.raises(DiagnosticError) as info:  # known, and broken since: its own errors
        registry.get("prompts/a")
    assert str(info.value) == (
        "a.wink.yaml:5:18: error: Placeholder '$who' is not a declared param."
    )


def test_the_first_file_claiming_an_address_that_compiles_serves_it(
    here: Path, catalog: PluginCatalog, counter: CompileCounter
) -> None:
    write(here, "a.wink.yaml", prompt("same", "First", extra=UNDECLARED))
    write(here, "b.wink.yaml", prompt("same", "Second"))
    write(here, "c.wink.yaml", prompt("same", "Third"))
    registry = PromptRegistry(".", catalog=catalog)
    assert title(registry.get("prompts/same")) == "Second"
    assert counter.calls == ["a.wink.yaml", "b.wink.yaml"]
    assert registry.addresses() == {"prompts/same": Path("b.wink.yaml")}


def test_a_file_that_cannot_be_read_is_compiled_to_learn_it_has_no_address(
    here: Path, catalog: PluginCatalog, counter: CompileCounter
) -> None:
    write(here, "a.wink.yaml", prompt("a"))
    write(here, "big.wink.yaml", prompt("big", extra="    template: " + "x" * 400 + "\n"))
    registry = PromptRegistry(".", catalog=catalog, limits=Limits(max_bytes=300))
    assert registry.get("prompts/a").source == "a.wink.yaml"
    assert unknown(registry, "prompts/big") == (
        ".: error: No prompt 'prompts/big' under '.'. Did you mean 'prompts/a'?"
    )
    assert counter.calls == ["a.wink.yaml", "big.wink.yaml"]  # big sorts after a


# -- files that change --------------------------------------------------------------------


def test_an_edited_key_moves_the_address(
    here: Path, catalog: PluginCatalog, counter: CompileCounter
) -> None:
    path = write(here, "a.wink.yaml", prompt("a"))
    write(here, "b.wink.yaml", prompt("b"))
    registry = PromptRegistry(".", catalog=catalog)
    assert registry.get("prompts/a").source == "a.wink.yaml"
    rewrite(path, prompt("moved"))
    assert registry.get("prompts/moved").source == "a.wink.yaml"
    assert unknown(registry, "prompts/a") == (
        ".: error: No prompt 'prompts/a' under '.'. Did you mean 'prompts/b'?"
    )
    assert counter.calls == ["a.wink.yaml", "a.wink.yaml", "b.wink.yaml"]


def test_a_file_added_and_a_file_removed_are_seen(here: Path, catalog: PluginCatalog) -> None:
    write(here, "a.wink.yaml", prompt("a"))
    registry = PromptRegistry(".", catalog=catalog)
    assert registry.get("prompts/a").source == "a.wink.yaml"
    write(here, "sub/b.wink.yaml", prompt("b"))
    assert registry.get("sub/b").source == "sub/b.wink.yaml"
    (here / "a.wink.yaml").rename(here / "sub/a.wink.yaml")
    assert registry.get("sub/a").source == "sub/a.wink.yaml"
    assert unknown(registry, "prompts/a") == ".: error: No prompt 'prompts/a' under '.'."


def test_a_stale_index_on_disk_is_corrected(
    here: Path, tmp_path: Path, catalog: PluginCatalog, counter: CompileCounter
) -> None:
    cache = tmp_path / "cache"
    first = write(here, "a.wink.yaml", prompt("a", "Old"))
    write(here, "b.wink.yaml", prompt("b"))
    assert title(PromptRegistry(".", catalog=catalog, cache_dir=cache).get("prompts/a")) == "Old"
    assert body_of(index_entry(cache))["files"] == {
        "prompts/a": "a.wink.yaml",
        "prompts/b": "b.wink.yaml",
    }
    rewrite(first, prompt("z"))
    write(here, "c.wink.yaml", prompt("a", "New"))
    counter.calls.clear()

    assert title(PromptRegistry(".", catalog=catalog, cache_dir=cache).get("prompts/a")) == "New"
    assert counter.calls == ["a.wink.yaml", "c.wink.yaml"]  # the hint, then the claimant
    assert body_of(index_entry(cache))["files"] == {
        "prompts/a": "c.wink.yaml",
        "prompts/b": "b.wink.yaml",
        "prompts/z": "a.wink.yaml",
    }
    counter.calls.clear()
    assert title(PromptRegistry(".", catalog=catalog, cache_dir=cache).get("prompts/a")) == "New"
    assert counter.calls == ["c.wink.yaml"]


def test_the_index_on_disk_serves_any_spelling_of_the_root(
    here: Path, tmp_path: Path, catalog: PluginCatalog, counter: CompileCounter
) -> None:
    cache = tmp_path / "cache"
    write(here, "a.wink.yaml", prompt("a"))
    write(here, "sub/b.wink.yaml", prompt("b"))
    assert PromptRegistry("./", catalog=catalog, cache_dir=cache).get("sub/b").source == (
        "sub/b.wink.yaml"
    )
    counter.calls.clear()
    absolute = PromptRegistry(here, catalog=catalog, cache_dir=cache)
    assert absolute.get("sub/b").source == str(here / "sub/b.wink.yaml")
    assert counter.calls == [str(here / "sub/b.wink.yaml")]


# -- an index on disk that lies -----------------------------------------------------------


@pytest.fixture
def duplicates(here: Path, tmp_path: Path, catalog: PluginCatalog) -> Path:
    """Two files claiming one address, and a cache folder whose index gives it the first."""
    write(here, "first.wink.yaml", prompt("same", "First"))
    write(here, "second.wink.yaml", prompt("same", "Second"))
    write(here, "other.wink.yaml", prompt("other", "Other"))
    cache = tmp_path / "cache"
    assert title(PromptRegistry(".", catalog=catalog, cache_dir=cache).get("prompts/same")) == (
        "First"
    )
    return cache


def body_with(files: object) -> bytes:
    return json.dumps({"format": INDEX_FORMAT, "files": files}).encode()


def test_an_edited_index_entry_cannot_change_which_prompt_get_returns(
    duplicates: Path, catalog: PluginCatalog
) -> None:
    entry = index_entry(duplicates)
    header = entry.read_bytes().partition(b"\n")[0]
    entry.write_bytes(header + b"\n" + body_with({"prompts/same": "second.wink.yaml"}))
    assert title(
        PromptRegistry(".", catalog=catalog, cache_dir=duplicates).get("prompts/same")
    ) == ("First")


def test_an_index_entry_signed_with_another_key_cannot_change_which_prompt_get_returns(
    duplicates: Path, catalog: PluginCatalog
) -> None:
    entry = index_entry(duplicates)
    sign(entry, body_with({"prompts/same": "second.wink.yaml"}), secret=b"k" * 32)
    assert title(
        PromptRegistry(".", catalog=catalog, cache_dir=duplicates).get("prompts/same")
    ) == ("First")


@pytest.mark.parametrize(
    "files",
    [
        {"prompts/same": "other.wink.yaml"},
        {"prompts/same": "../outside.wink.yaml"},
        {"prompts/same": "/outside.wink.yaml"},
        {"prompts/same": "./second.wink.yaml"},
        {"prompts/same": "sub//second.wink.yaml"},
        {"prompts/same": "second.txt"},
        {"prompts/same": "second\0.wink.yaml"},
        {"prompts/same": 42},
        ["prompts/same", "second.wink.yaml"],
    ],
    ids=[
        "another address",
        "up",
        "absolute",
        "dot",
        "empty part",
        "not a prompt",
        "nul",
        "not a string",
        "not a mapping",
    ],
)
def test_a_signed_index_entry_pointing_elsewhere_costs_compiles_not_the_answer(
    here: Path, duplicates: Path, catalog: PluginCatalog, counter: CompileCounter, files: object
) -> None:
    """What someone holding the key could write: the hint is checked, then compiled."""
    write(here.parent, "outside.wink.yaml", prompt("same", "Outside"))
    sign(index_entry(duplicates), body_with(files))
    registry = PromptRegistry(".", catalog=catalog, cache_dir=duplicates)
    assert title(registry.get("prompts/same")) == "First"
    assert not any("outside" in call for call in counter.calls)


@pytest.mark.parametrize(
    "body",
    [b"not json", json.dumps({"format": "other", "files": {}}).encode(), b"{}", b"[]"],
    ids=["not json", "another format", "no format", "not an object"],
)
def test_a_signed_index_entry_that_is_not_an_index_is_no_index(
    duplicates: Path, catalog: PluginCatalog, counter: CompileCounter, body: bytes
) -> None:
    sign(index_entry(duplicates), body)
    registry = PromptRegistry(".", catalog=catalog, cache_dir=duplicates)
    assert title(registry.get("prompts/same")) == "First"
    assert body_of(index_entry(duplicates))["files"] == {
        "prompts/other": "other.wink.yaml",
        "prompts/same": "first.wink.yaml",
    }


# -- threads ------------------------------------------------------------------------------


def test_threads_opening_one_registry_each_file_compiled_once(
    here: Path, tmp_path: Path, catalog: PluginCatalog, counter: CompileCounter
) -> None:
    names = [
        str(write(here, f"g{n % 3}/p{n}.wink.yaml", prompt(f"p{n}", f"T{n}"))) for n in range(12)
    ]
    write(here, "odd.wink.yaml", prompt("&k odd"))
    registry = PromptRegistry(".", catalog=catalog, cache_dir=tmp_path / "cache")
    addresses = [f"g{n % 3}/p{n}" for n in range(12)]

    def ask(thread: int) -> list[str]:
        order = addresses[thread % 12 :] + addresses[: thread % 12]
        return [f"{address}={title(registry.get(address))}" for address in order]

    answers = run_threads(ask, threads=16)

    for thread, got in enumerate(answers):
        assert sorted(got) == sorted(f"g{n % 3}/p{n}=T{n}" for n in range(12)), thread
    relative = sorted(os.path.relpath(name, here) for name in names)
    assert sorted(counter.calls) == sorted([*relative, "odd.wink.yaml"])


# -- the walk -----------------------------------------------------------------------------


@pytest.mark.parametrize("root", [".", "./", "tree", "tree/", "tree/./x/..", "ABS"])
def test_the_files_are_listed_as_paths_sort(here: Path, catalog: PluginCatalog, root: str) -> None:
    for name in [
        "a-b/x.wink.yaml",
        "a/x.wink.yaml",
        "A/x.wink.yaml",
        "a.b/x.wink.toml",
        "z.wink.yml",
    ]:
        toml = 'ns = "t"\nkey = "x"\n[[sections]]\ntitle = "X"\n'
        text = toml if name.endswith("toml") else "ns: t\n" + prompt("x")
        write(here, name, text)
        write(here, f"tree/{name}", text)
    (here / "tree/x").mkdir()
    top = str(here) if root == "ABS" else root
    expected = sorted(Path(folder, f) for folder, _, files in os.walk(top) for f in files)
    registry = PromptRegistry(top, catalog=catalog)
    assert registry.files() == expected
    assert find_prompt_files(top) == expected
    assert [str(path) for path in expected] == [
        compiled(registry.compile(path)).source for path in expected
    ]


# -- the benchmark ------------------------------------------------------------------------


def test_the_registry_benchmark_runs() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "registry.py"
    done = run_python(script, args=["--small", "3", "--files", "30", "--rounds", "1"], timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "open + first get, best of 1 new processes (seconds, after imports)"
    assert [line.split("  ")[1] for line in lines[1:]] == [
        "3 files, no cache folder",
        "30 files, no cache folder",
        "3 files, index cached",
        "30 files, index cached",
        "30 files, every file compiled",
    ]
    for line in (lines[2], lines[4]):
        assert re.search(r"x 3 files \(rounds \d+\.\d\d-\d+\.\d\dx; target: within 3x\)\Z", line)
    assert lines[5].endswith("x index cached (the peer: what opening cost before)")
