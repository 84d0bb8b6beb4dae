FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY taxilaw taxilaw
COPY taxiwire taxiwire
COPY config config
COPY backend backend
COPY dispatch dispatch
COPY zones zones
COPY driver_app driver_app
COPY manage.py ./
# collectstatic only imports the settings: a throwaway key, never the one the platform runs with.
RUN pip install --no-cache-dir . && DJANGO_SECRET_KEY=collectstatic-only python manage.py collectstatic --no-input --verbosity 0
EXPOSE 8000
CMD ["python", "-m", "dispatch.transport.server", "-b", "0.0.0.0", "-p", "8000", "config.asgi:application"]
