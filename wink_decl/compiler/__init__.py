"""The compiler: prompt files in, runtime ``PromptTemplate`` and tool registry out.

Each name below is imported from its module on first use: ``wink-decl validate`` needs
``compile_file`` alone, not the artifact, the registry or the plugin binding behind the others.
"""

from wink_decl._exports import exports_on_first_use

TYPE_CHECKING = False
"""True for type checkers only (they read the imports below)."""

if TYPE_CHECKING:
    from wink_decl.compiler._artifact import ARTIFACT_FORMAT, artifact_json
    from wink_decl.compiler._claims import claimed_address
    from wink_decl.compiler._confined import Confinement, outside_root
    from wink_decl.compiler._disk_cache import cache_problem
    from wink_decl.compiler._lazy import LazyTool
    from wink_decl.compiler._numbers import number_problems
    from wink_decl.compiler._prompt_files import (
        EVAL_SUFFIXES,
        PROMPT_SUFFIXES,
        FoundFile,
        find_prompt_files,
        prompt_entries,
    )
    from wink_decl.compiler._render_params import make_params, unknown_param
    from wink_decl.compiler._served import unserved_files
    from wink_decl.compiler.compile import (
        CompiledPrompt,
        CompileResult,
        bind_plugins,
        compile_file,
        compile_loaded,
        default_catalog,
    )
    from wink_decl.compiler.registry import CachedResult, PromptRegistry

__all__ = [
    "ARTIFACT_FORMAT",
    "EVAL_SUFFIXES",
    "PROMPT_SUFFIXES",
    "CachedResult",
    "CompileResult",
    "CompiledPrompt",
    "Confinement",
    "FoundFile",
    "LazyTool",
    "PromptRegistry",
    "artifact_json",
    "bind_plugins",
    "cache_problem",
    "claimed_address",
    "compile_file",
    "compile_loaded",
    "default_catalog",
    "find_prompt_files",
    "make_params",
    "number_problems",
    "outside_root",
    "prompt_entries",
    "unknown_param",
    "unserved_files",
]

_HOMES: dict[str, str] = {
    "ARTIFACT_FORMAT": "wink_decl.compiler._artifact",
    "EVAL_SUFFIXES": "wink_decl.compiler._prompt_files",
    "PROMPT_SUFFIXES": "wink_decl.compiler._prompt_files",
    "CachedResult": "wink_decl.compiler.registry",
    "CompileResult": "wink_decl.compiler.compile",
    "CompiledPrompt": "wink_decl.compiler.compile",
    "FoundFile": "wink_decl.compiler._prompt_files",
    "LazyTool": "wink_decl.compiler._lazy",
    "PromptRegistry": "wink_decl.compiler.registry",
    "artifact_json": "wink_decl.compiler._artifact",
    "bind_plugins": "wink_decl.compiler.compile",
    "cache_problem": "wink_decl.compiler._disk_cache",
    "claimed_address": "wink_decl.compiler._claims",
    "compile_file": "wink_decl.compiler.compile",
    "compile_loaded": "wink_decl.compiler.compile",
    "default_catalog": "wink_decl.compiler.compile",
    "find_prompt_files": "wink_decl.compiler._prompt_files",
    "make_params": "wink_decl.compiler._render_params",
    "number_problems": "wink_decl.compiler._numbers",
    "outside_root": "wink_decl.compiler._confined",
    "Confinement": "wink_decl.compiler._confined",
    "prompt_entries": "wink_decl.compiler._prompt_files",
    "unknown_param": "wink_decl.compiler._render_params",
    "unserved_files": "wink_decl.compiler._served",
}
"""Each exported name and the module it is imported from on first use."""

__getattr__, __dir__ = exports_on_first_use(__name__, _HOMES)
