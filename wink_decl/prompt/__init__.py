"""The prompt layer: sections, templates, visibility, rendering, read_section and tool contracts.

It never imports ``wink_decl.runtime`` (docs/runtime.md, "Layers").
"""
