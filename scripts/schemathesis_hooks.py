"""schemathesis hooks of `make test-schema` (loaded through SCHEMATHESIS_HOOKS by scripts/schema-test.sh).

Works around a CPython 3.11 fault, not an API finding: Hypothesis names each filter of a strategy by
parsing the source file of its lambda, and `ast.parse` of schemathesis' large coverage module raises
`SystemError: AST constructor recursion depth mismatch` on Python 3.11 when called deep in the
coverage phase (it stopped the coverage of one operation with a runtime error). The name is only a
label in Hypothesis' repr, so a failure to parse falls back to a generic one.
"""

from hypothesis.internal import lambda_sources

_describe = lambda_sources._lambda_description


def _lambda_description(f, *args, **kwargs):
    try:
        return _describe(f, *args, **kwargs)
    except SystemError:
        return "lambda: <unknown>"


lambda_sources._lambda_description = _lambda_description
