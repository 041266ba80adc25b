"""The walk's bounds, apart from the service, so the API's models (and donto.Client) can state them
without importing the graph driver."""

MAX_DEPTH = 32  # the bound written into the query's quantifier
DEFAULT_FAN_OUT = 64
MAX_IDS = 1000  # claims in one status call
