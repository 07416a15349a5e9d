"""placeholder"""
name = "pydantic_ai-multi"
lib_version = "x"
def build(arena, config, ctx):
    raise NotImplementedError("not yet")
