"""`scorepad serve`: the live score page for everyone at the table, a front end beside `table/`.

It imports `app/` and `text/` and the leaves below them, never `table/` or `cli/` (pyproject's import
contract); starlette, uvicorn, sse-starlette and segno come with the extra `scorepad[serve]`.
"""
