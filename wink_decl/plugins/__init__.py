"""Entry-point plugins: find handlers, policies, predicates and evaluators, load them lazily.

Each name below is imported from its module on first use: checking a file looks plugins up by
name and needs none of the code that checks an imported handler.
"""

from wink_decl._exports import exports_on_first_use

TYPE_CHECKING = False
"""True for type checkers only (they read the imports below)."""

if TYPE_CHECKING:
    from wink_decl.plugins._catalog import (
        EVALUATORS,
        GROUPS,
        HANDLERS,
        POLICIES,
        PREDICATES,
        PluginCallError,
        PluginCatalog,
        PluginEntry,
        PluginLoadError,
        PluginProblem,
        describe_exception,
        normalise_distribution,
        plugin_raised,
    )
    from wink_decl.plugins._compare_params import compare_params
    from wink_decl.plugins._factories import settings_misfit
    from wink_decl.plugins._handlers import (
        check_handler,
        handler_params_type,
        handler_result_type,
    )

__all__ = [
    "EVALUATORS",
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
    "describe_exception",
    "handler_params_type",
    "handler_result_type",
    "normalise_distribution",
    "plugin_raised",
    "settings_misfit",
]

_HOMES: dict[str, str] = {
    "EVALUATORS": "wink_decl.plugins._catalog",
    "GROUPS": "wink_decl.plugins._catalog",
    "HANDLERS": "wink_decl.plugins._catalog",
    "POLICIES": "wink_decl.plugins._catalog",
    "PREDICATES": "wink_decl.plugins._catalog",
    "PluginCallError": "wink_decl.plugins._catalog",
    "PluginCatalog": "wink_decl.plugins._catalog",
    "PluginEntry": "wink_decl.plugins._catalog",
    "PluginLoadError": "wink_decl.plugins._catalog",
    "PluginProblem": "wink_decl.plugins._catalog",
    "check_handler": "wink_decl.plugins._handlers",
    "compare_params": "wink_decl.plugins._compare_params",
    "describe_exception": "wink_decl.plugins._catalog",
    "handler_params_type": "wink_decl.plugins._handlers",
    "handler_result_type": "wink_decl.plugins._handlers",
    "normalise_distribution": "wink_decl.plugins._catalog",
    "plugin_raised": "wink_decl.plugins._catalog",
    "settings_misfit": "wink_decl.plugins._factories",
}
"""Each exported name and the module it is imported from on first use."""

__getattr__, __dir__ = exports_on_first_use(__name__, _HOMES)
