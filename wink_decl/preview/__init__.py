"""``wink-decl preview``: a local page that shows prompt files as a model receives them.

See docs/preview.md. The server (``wink_decl.preview.app``) needs the ``[preview]`` extra;
the page's model (``wink_decl.preview.page``) needs only wink-decl itself.
"""
