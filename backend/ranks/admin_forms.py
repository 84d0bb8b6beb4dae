"""Admin form fields for the ranks app: an edital's publication dates typed one per line, as a person writes them."""

from datetime import date

from django import forms
from django.utils.translation import gettext_lazy as _


class DatesPerLineField(forms.Field):
    """A list of dates, one per line ("04/12/2026"), kept as ISO strings (the JSON the model stores).

    Any of Django's pt-BR date input formats is accepted; blank lines are ignored; the dates come back sorted and
    without repeats. Nobody types JSON."""

    widget = forms.Textarea(attrs={"rows": 4, "cols": 16, "placeholder": "04/12/2026\n11/12/2026"})
    default_error_messages = {"invalid_line": _("Data inválida na linha %(line)s: “%(text)s”. Escreva uma data por linha, como 04/12/2026.")}

    def prepare_value(self, value):
        if isinstance(value, (list, tuple)):
            return "\n".join(date.fromisoformat(str(d)).strftime("%d/%m/%Y") for d in value)
        return value

    def to_python(self, value):
        if isinstance(value, (list, tuple)):
            return sorted({str(d) for d in value})
        parse = forms.DateField().to_python
        found = set()
        for number, line in enumerate((value or "").splitlines(), start=1):
            text = line.strip()
            if not text:
                continue
            try:
                found.add(parse(text).isoformat())
            except forms.ValidationError:
                raise forms.ValidationError(self.error_messages["invalid_line"], code="invalid_line",
                                            params={"line": number, "text": text}) from None
        return sorted(found)


class ContestForm(forms.ModelForm):
    publication_dates = DatesPerLineField(label=_("Datas de publicação (Art. 16)"),
                                          help_text=_("Uma data por linha (dd/mm/aaaa), na ordem que quiser."))
