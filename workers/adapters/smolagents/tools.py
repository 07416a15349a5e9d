"""The arena's canonical tools as smolagents `Tool`s: name, description and parameters read from
`arena_tools.definitions` (never retyped), every call run through `ctx.tools.dispatch`.

smolagents builds a tool's wire schema from its `inputs` (models.get_tool_json_schema): each input's
dict becomes the property as is, and `required` is every input not marked `nullable`. So an optional
canonical parameter must carry `nullable: True` to stay out of `required`: that key is the one
difference from the canonical spec on the wire (declared in declarations.json)."""
import json

from arena_tools.definitions import TOOLS, names_for

# The canonical parameter types are JSON Schema's, which are smolagents' input types too.


def _inputs(tool):
    inputs = {}
    for p in tool["parameters"]:
        schema = {"type": p["type"], "description": p["description"]}
        if "default" in p:
            schema["default"] = p["default"]
        if not p["required"]:
            schema["nullable"] = True
        inputs[p["name"]] = schema
    return inputs


def arguments_text(args, kwargs):
    """The call's arguments as the JSON text dispatch reads: smolagents has parsed the model's
    string already (agents.parse_json_if_needed), so this is its re-serialisation."""
    if args and not kwargs:
        value = args[0]
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return json.dumps(kwargs, ensure_ascii=False)


def make_tool(name, ctx, on_call=None):
    """One smolagents Tool for canonical tool `name`, run through dispatch; `on_call(name, text)`
    sees each call (the code agent's calls exist only as Python calls, not on the wire)."""
    from smolagents import Tool

    definition = TOOLS[name]

    def forward(self, *args, **kwargs):
        text = arguments_text(args, kwargs)
        if on_call is not None:
            on_call(name, text)
        return ctx.tools.dispatch(name, text)

    cls = type(
        f"Arena_{name}",
        (Tool,),
        {
            "name": definition["name"],
            "description": definition["description"],
            "inputs": _inputs(definition),
            "output_type": "string",
            # forward takes the inputs as keywords generically, not as a typed signature.
            "skip_forward_signature_validation": True,
            "forward": forward,
        },
    )
    return cls()


def arena_tools(arena, ctx, on_call=None):
    return [make_tool(name, ctx, on_call) for name in names_for(arena.get("tools"))]
