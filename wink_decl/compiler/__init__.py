"""The compiler: prompt files in, runtime ``PromptTemplate`` and tool registry out."""

from wink_decl.compiler._artifact import ARTIFACT_FORMAT, artifact_json
from wink_decl.compiler._confined import outside_root
from wink_decl.compiler._lazy import LazyTool
from wink_decl.compiler._render_params import make_params, unknown_param
from wink_decl.compiler.compile import (
    CompiledPrompt,
    CompileResult,
    bind_plugins,
    compile_file,
    compile_loaded,
)
from wink_decl.compiler.registry import (
    PROMPT_SUFFIXES,
    CachedResult,
    PromptRegistry,
    find_prompt_files,
)

__all__ = [
    "ARTIFACT_FORMAT",
    "PROMPT_SUFFIXES",
    "CachedResult",
    "CompileResult",
    "CompiledPrompt",
    "LazyTool",
    "PromptRegistry",
    "artifact_json",
    "bind_plugins",
    "compile_file",
    "compile_loaded",
    "find_prompt_files",
    "make_params",
    "outside_root",
    "unknown_param",
]
