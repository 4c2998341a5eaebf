"""What a front end is given, resolved once: prompt root, limits, params, tag and overrides.

The command line, the preview page and ``wink_decl.load`` (and what is built on them) describe
what they were asked as a ``PromptRequest``; ``prepare`` answers it the same way for each.
Where a prompt's root is (``RootSearch``) and where its overrides are is decided here alone.

Each name below is imported from its module on first use: finding a prompt root loads no
compiler, and a front end that only reads params files loads no overrides.
"""

from wink_decl._exports import exports_on_first_use

TYPE_CHECKING = False
"""True for type checkers only (they read the imports below)."""

if TYPE_CHECKING:
    from wink_decl.errors import InputError
    from wink_decl.inputs._open import opened_sections
    from wink_decl.inputs._params import MISSING_HINT, ParamValues, split_param
    from wink_decl.inputs._params_file import PARAMS_FILE, ParamsFile, load_params_file
    from wink_decl.inputs._report import Report
    from wink_decl.inputs._request import (
        Location,
        Plugins,
        Prepared,
        PromptRequest,
        locate,
        prepare,
    )
    from wink_decl.inputs._roots import (
        RootChoice,
        RootSearch,
        chosen_overrides,
        configured_folder,
        configured_root,
        default_folder,
        existing_path,
        overrides_folder,
        overrides_or_default,
        path_text,
        prompt_file,
        root_finder,
    )

__all__ = [
    "MISSING_HINT",
    "PARAMS_FILE",
    "InputError",
    "Location",
    "ParamValues",
    "ParamsFile",
    "Plugins",
    "Prepared",
    "PromptRequest",
    "Report",
    "RootChoice",
    "RootSearch",
    "chosen_overrides",
    "configured_folder",
    "configured_root",
    "default_folder",
    "existing_path",
    "load_params_file",
    "locate",
    "opened_sections",
    "overrides_folder",
    "overrides_or_default",
    "path_text",
    "prepare",
    "prompt_file",
    "root_finder",
    "split_param",
]

_HOMES: dict[str, str] = {
    "MISSING_HINT": "wink_decl.inputs._params",
    "PARAMS_FILE": "wink_decl.inputs._params_file",
    "InputError": "wink_decl.errors",
    "Location": "wink_decl.inputs._request",
    "ParamValues": "wink_decl.inputs._params",
    "ParamsFile": "wink_decl.inputs._params_file",
    "Plugins": "wink_decl.inputs._request",
    "Prepared": "wink_decl.inputs._request",
    "PromptRequest": "wink_decl.inputs._request",
    "Report": "wink_decl.inputs._report",
    "RootChoice": "wink_decl.inputs._roots",
    "RootSearch": "wink_decl.inputs._roots",
    "chosen_overrides": "wink_decl.inputs._roots",
    "configured_folder": "wink_decl.inputs._roots",
    "configured_root": "wink_decl.inputs._roots",
    "default_folder": "wink_decl.inputs._roots",
    "existing_path": "wink_decl.inputs._roots",
    "load_params_file": "wink_decl.inputs._params_file",
    "locate": "wink_decl.inputs._request",
    "opened_sections": "wink_decl.inputs._open",
    "overrides_folder": "wink_decl.inputs._roots",
    "overrides_or_default": "wink_decl.inputs._roots",
    "path_text": "wink_decl.inputs._roots",
    "prepare": "wink_decl.inputs._request",
    "prompt_file": "wink_decl.inputs._roots",
    "root_finder": "wink_decl.inputs._roots",
    "split_param": "wink_decl.inputs._params",
}
"""Each exported name and the module it is imported from on first use."""

__getattr__, __dir__ = exports_on_first_use(__name__, _HOMES)
