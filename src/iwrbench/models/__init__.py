"""The providers' layer: provider-neutral chat messages (``chat``), HTTP clients for OpenAI-compatible and
Anthropic servers (``http``, ``openai``, ``anthropic``, ``clients``), output caps that fit a server
(``context``), prices and the run's budget (``pricing``), the response cache (``cache``), asking a judge
model until its reply reads (``ask``), and the contract every model implements with its options
(``base``). The models themselves (chat model, baselines, the MODEL registry) are ``iwrbench.generate``.
"""
