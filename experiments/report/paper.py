"""Filling paper/paper.md.in: `{{name}}` takes a fact (facts.py), `{{table:FILE}}` a
generated table. A name no fact has is an error, so the template cannot drift
from what the results say."""
import re

PLACEHOLDER = re.compile(r"\{\{\s*([\w:.<>,-]+)\s*\}\}")


def render(template, facts, tables):
    unknown = []

    def fill(m):
        name = m.group(1)
        if name.startswith("table:"):
            table = tables.get(name[len("table:"):])
            return table.rstrip("\n") if table else "*(not measured in this run)*"
        if name not in facts:
            unknown.append(name)
            return m.group(0)
        return facts[name]

    text = PLACEHOLDER.sub(fill, template)
    if unknown:
        raise KeyError("paper/paper.md.in names facts the results do not give: " + ", ".join(sorted(set(unknown))))
    return text
