"""Status error objects, as the API server sends them."""


class ApiError(Exception):
    def __init__(self, code, reason, message, causes=None, kind="", name="", group="", retry_after=None,
                 headers=None):
        super().__init__(message)
        self.code, self.reason, self.message = code, reason, message
        self.causes, self.kind, self.name, self.group = causes or [], kind, name, group
        self.retry_after = retry_after
        self.headers = headers or {}

    def status(self):
        details = {}
        if self.name:
            details["name"] = self.name
        if self.group:
            details["group"] = self.group
        if self.kind:
            details["kind"] = self.kind
        if self.causes:
            details["causes"] = self.causes
        if self.retry_after is not None:
            details["retryAfterSeconds"] = self.retry_after
        body = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": self.message, "reason": self.reason, "code": self.code}
        if details:
            body["details"] = details
        return body


def not_found(kind_plural, group, name):
    qualified = f"{kind_plural}.{group}" if group else kind_plural
    return ApiError(404, "NotFound", f'{qualified} "{name}" not found', kind=kind_plural, name=name, group=group)
