"""PDF documents in Portuguese: fpdf2 with the DejaVu fonts shipped in backend/fonts (accents need a Unicode TTF)."""

from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT = "DejaVu"


def new_pdf(**kwargs):
    from fpdf import FPDF

    pdf = FPDF(**kwargs)
    pdf.add_font(FONT, "", str(FONT_DIR / "DejaVuSans.ttf"))
    pdf.add_font(FONT, "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
    return pdf
