"""Request validation shared by the API views."""


def valid(serializer_class, request, **kwargs):
    """The request body validated by ``serializer_class``; a 400 with per-field messages otherwise."""
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
