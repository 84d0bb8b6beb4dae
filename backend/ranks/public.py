"""The published ranking of a contest, for candidates and the public: HTML and PDF (pt-BR)."""


from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext as _

from backend.pdf import new_pdf

from . import selectors
from .models import Contest


def _published(pk) -> Contest:
    contest = get_object_or_404(Contest, pk=pk)
    if contest.status not in (Contest.Status.CLASSIFIED, Contest.Status.GRANTED):
        raise Http404(_("O resultado deste concurso ainda não foi publicado."))
    return contest


def ranking_html(request, pk):
    contest = _published(pk)
    ranked, excluded = selectors.ranking(contest)
    return render(request, "ranks/ranking.html", {"contest": contest, "ranked": ranked, "excluded": excluded})


def ranking_pdf_bytes(contest: Contest) -> bytes:
    ranked, excluded = selectors.ranking(contest)
    pdf = new_pdf(orientation="L", format="A4")
    pdf.set_auto_page_break(True, margin=12)
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 14)
    pdf.multi_cell(0, 8, f"{contest.title}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 10)
    kind = _("Concurso de promoção (Art. 27)") if contest.promotion else _("Concurso público (Art. 15-21)")
    pdf.multi_cell(
        0, 6,
        f"{kind} · {_('Data do concurso')}: {contest.contest_date:%d/%m/%Y} · "
        f"{_('Resultado publicado em')}: {contest.result_published_on:%d/%m/%Y}\n"
        f"{_('Classificação em ordem decrescente de pontos (Art. 19, Art. 20); desempate pelo Art. 21.')}",
        new_x="LMARGIN", new_y="NEXT",
    )
    pdf.ln(2)
    headers = [_("Pos."), _("Candidato"), _("Ano-modelo"), _("Experiência"), _("Qualificação"), _("Total"), _("Desempate"), _("Ponto obtido")]
    widths = [14, 70, 26, 26, 28, 18, 40, 55]
    pdf.set_font("DejaVu", "B", 9)
    for h, w in zip(headers, widths):
        pdf.cell(w, 7, h, border=1)
    pdf.ln()
    pdf.set_font("DejaVu", "", 9)
    for c in ranked:
        tie = c.decided_by + (f" · {_('sorteio')}" if c.needs_draw else "")
        row = [str(c.position), c.person.full_name, str(c.model_year_points), str(c.experience_points),
               str(c.qualification_points), str(c.total_points), tie, c.allocated_rank.name if c.allocated_rank else "—"]
        for value, w in zip(row, widths):
            pdf.cell(w, 6, value[:48], border=1)
        pdf.ln()
    if excluded:
        pdf.ln(3)
        pdf.set_font("DejaVu", "B", 10)
        pdf.cell(0, 7, _("Candidatos excluídos"), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("DejaVu", "", 9)
        for c in excluded:
            reasons = "; ".join(r["message"] for r in c.exclusion_reasons)
            pdf.multi_cell(0, 5, f"{c.person.full_name}: {reasons}", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def ranking_pdf(request, pk):
    contest = _published(pk)
    response = HttpResponse(ranking_pdf_bytes(contest), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="classificacao-concurso-{contest.pk}.pdf"'
    return response


urlpatterns = [
    path("contests/<int:pk>/ranking/", ranking_html, name="contest-ranking-html"),
    path("contests/<int:pk>/ranking.pdf", ranking_pdf, name="contest-ranking-pdf"),
]
