"""Entry-point plugins: find handlers, policies and predicates, load them lazily, check them."""

from wink_decl.plugins._catalog import (
    GROUPS,
    HANDLERS,
    POLICIES,
    PREDICATES,
    PluginCallError,
    PluginCatalog,
    PluginEntry,
    PluginLoadError,
    PluginProblem,
    normalise_distribution,
)
from wink_decl.plugins._compare_params import compare_params
from wink_decl.plugins._handlers import check_handler, handler_params_type, handler_result_type

__all__ = [
    "GROUPS",
    "HANDLERS",
    "POLICIES",
    "PREDICATES",
    "PluginCallError",
    "PluginCatalog",
    "PluginEntry",
    "PluginLoadError",
    "PluginProblem",
    "check_handler",
    "compare_params",
    "handler_params_type",
    "handler_result_type",
    "normalise_distribution",
]
