"""Errors the user can act on. The CLI prints them as one line, without a traceback."""


class IwrError(Exception):
    """A problem with the user's input or environment; the message says what and what to do."""


class TaskError(IwrError):
    """A task folder, task.json or data.jsonl that cannot be used."""


class RecipeError(IwrError):
    """A recipe that cannot be read or run."""


class RecordError(IwrError):
    """Recording failed (unreachable page, selector matching nothing, page never settling)."""


class ModelError(IwrError):
    """An unknown model name or a provider that cannot be used."""


class ComponentMissing(IwrError):
    """A component a protocol needs is not available here (never silently replaced)."""


class InfraError(Exception):
    """Our side failed (browser crash, our timeout): a ``judge_error``, never the model's fault."""


class JudgeError(InfraError):
    """A judge model kept giving replies that cannot be read (after its retries): a ``judge_error``
    row at once (re-running the unit would ask the same again); ``raw`` is the last reply."""

    def __init__(self, message: str, raw: str = ""):
        super().__init__(message)
        self.raw = raw
