"""The starter prompt ``wink-decl new`` writes, in YAML and in TOML, every part explained."""

from __future__ import annotations

from wink_decl.cli._writers._comments import schema_line
from wink_decl.loader.api import Format

__all__ = ["starter_text", "title_of"]

# The two files say the same thing; tests check that they compile to the same artifact.
# Placeholders are <<...>> because templates use ${...} and braces of their own.
_YAML = """\
# <<TITLE>>: a starter prompt made by `wink-decl new`. The comment above each part says what
# it is for. Change the text, then check the file with `wink-decl validate <<FILE>>`.
# Every key a prompt file may hold, with examples: docs/prompt-files.md in wink-decl's repository.

# The key names the prompt; with the folder the file is in, it is the prompt's address.
key: <<KEY>>
# A name and a description, for people choosing a prompt.
name: <<TITLE>>
description: Answers a question about a topic, in a chosen tone.

# Params are the inputs filled in each time the prompt is used: write ${topic} in a text to
# insert one. A param with a default may be left out, and then the default is used.
params:
  topic:
    type: string
    description: What the question is about.
  tone:
    type: string
    default: friendly
    description: How the answer should sound.

# Sections are the parts of the prompt, in the order the model reads them.
sections:
  - key: task
    title: Task
    # The | starts a text of several lines; it ends where the indentation does.
    template: |
      Answer the question about ${topic}. Keep a ${tone} tone, and say so when you are
      not sure.

  # A summarized section shows only its summary at first. The model reads the rest with the
  # read_section tool when it needs to, which keeps the prompt short.
  - key: background
    title: Background
    visibility: summary
    summary: Background notes on ${topic}, to read when the question needs them.
    template: Use these notes when the question needs more than general knowledge.
    # Children are sections inside a section; they are numbered 2.1, 2.2 and so on.
    children:
      - key: sources
        title: Sources
        template: Prefer sources you can name, and say which ones you used.

  # A section offers the model the tools it lists, by their names under tools: below.
  - key: planning
    title: Planning
    template: |
      For a question with several parts, set up a plan with setup_plan first, and read it
      with read_plan before you answer.
    tools: [setup_plan, read_plan]

# Tools are actions the model may take. Each has a description for the model and a handler:
# the installed code that runs it (`wink-decl plugins` lists the handlers you can use).
tools:
  setup_plan:
    description: Create or replace the plan.
    handler: planning.setup_plan
  read_plan:
    description: Read the current plan.
    handler: planning.read_plan

# Policies are rules for using tools. To make the model set up a plan before it reads one,
# delete the "# " at the start of the three lines below.
# policies:
#   - sequential:
#       read_plan: [setup_plan]
"""

_TOML = '''\
# <<TITLE>>: a starter prompt made by `wink-decl new`. The comment above each part says what
# it is for. Change the text, then check the file with `wink-decl validate <<FILE>>`.
# Every key a prompt file may hold, with examples: docs/prompt-files.md in wink-decl's repository.

# The key names the prompt; with the folder the file is in, it is the prompt's address.
key = "<<KEY>>"
# A name and a description, for people choosing a prompt.
name = "<<TITLE>>"
description = "Answers a question about a topic, in a chosen tone."

# Params are the inputs filled in each time the prompt is used: write ${topic} in a text to
# insert one. A param with a default may be left out, and then the default is used.
[params.topic]
type = "string"
description = "What the question is about."

[params.tone]
type = "string"
default = "friendly"
description = "How the answer should sound."

# Sections are the parts of the prompt, in the order the model reads them; each [[sections]]
# line starts one.
[[sections]]
key = "task"
title = "Task"
# Three quotes start a text of several lines, and three more end it.
template = """
Answer the question about ${topic}. Keep a ${tone} tone, and say so when you are
not sure.
"""

# A summarized section shows only its summary at first. The model reads the rest with the
# read_section tool when it needs to, which keeps the prompt short.
[[sections]]
key = "background"
title = "Background"
visibility = "summary"
summary = "Background notes on ${topic}, to read when the question needs them."
template = "Use these notes when the question needs more than general knowledge."

# Children are sections inside a section: each [[sections.children]] belongs to the section
# above it. They are numbered 2.1, 2.2 and so on.
[[sections.children]]
key = "sources"
title = "Sources"
template = "Prefer sources you can name, and say which ones you used."

# A section offers the model the tools it lists, by their names in [tools...] below.
[[sections]]
key = "planning"
title = "Planning"
template = """
For a question with several parts, set up a plan with setup_plan first, and read it
with read_plan before you answer.
"""
tools = ["setup_plan", "read_plan"]

# Tools are actions the model may take. Each has a description for the model and a handler:
# the installed code that runs it (`wink-decl plugins` lists the handlers you can use).
[tools.setup_plan]
description = "Create or replace the plan."
handler = "planning.setup_plan"

[tools.read_plan]
description = "Read the current plan."
handler = "planning.read_plan"

# Policies are rules for using tools. To make the model set up a plan before it reads one,
# delete the "# " at the start of the two lines below.
# [[policies]]
# sequential = { read_plan = ["setup_plan"] }
'''


def title_of(key: str) -> str:
    """A display name for ``key``: ``code-review`` gives ``Code review``."""
    words = key.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def starter_text(key: str, file_format: Format, schema_ref: str, file_name: str) -> str:
    """The starter prompt named ``key`` in ``file_format``, its first line pointing at the schema.

    ``key`` must already match the key rule, so it needs no quoting in either format.
    """
    body = _YAML if file_format == "yaml" else _TOML
    filled = (
        body.replace("<<KEY>>", key)
        .replace("<<TITLE>>", title_of(key))
        .replace("<<FILE>>", file_name)
    )
    return schema_line(schema_ref, file_format) + filled
