"""The pt-BR labels of the indicators, for the API's answers and the page's tables (docs/indicators.md defines them)."""

SERVICE = {
    "requests": "Pedidos", "served": "Atendidos (embarque)", "escalated": "Sem táxi: encaminhados ao operador",
    "unanswered": "Não atendidos (desistência sem táxi)", "cancelled_passenger": "Cancelados pelo passageiro",
    "cancelled_operator": "Cancelados pelo operador", "cancelled_driver": "Cancelados pelo motorista",
    "no_shows": "Passageiro não apareceu", "offer_wait_s": "Tempo até a oferta (média, s)",
    "pickup_wait_s": "Tempo até o táxi chegar (média, s)",
}
PERMIT = {
    "permit": "Permissão", "holder": "Permissionário", "offers": "Ofertas", "accepted": "Aceitas", "declined": "Recusadas",
    "expired": "Expiradas", "acceptance": "Taxa de aceitação", "driver_cancellations": "Cancelamentos pelo motorista",
    "no_shows": "dos quais: passageiro não apareceu", "complaints": "Reclamações", "ratings": "Avaliações",
    "stars": "Média de estrelas", "absences": "Faltas ao ponto (Art. 9, V)",
}
FLEET = {
    "by_status": "Permissões por situação", "working": "Podem trabalhar agora", "blocked": "Impedidas agora",
    "blocked_by_reason": "Impedimentos por motivo", "blocked_permits": "Permissões impedidas",
    "expiring": "Documentos que vencem em 30 dias",
}
MONEY = {
    "rides": "Corridas com tarifa", "gross": "Valor bruto (R$)", "disagreements": "Divergências do taxímetro",
    "held": "Tarifas retidas para conferência (Art. 43)", "total": "Total retido (R$)", "oldest": "Mais antiga",
}
RANKS = {
    "name": "Ponto", "category": "Categoria (Art. 22)", "zone": "Zona (Art. 24/25)",
    "occupancy": "Ocupação (parcela do tempo com ao menos um táxi no ponto)", "cabs": "Média de táxis no ponto",
    "hours": "Por hora do dia",
}
GRAINS = {"day": "por dia", "week": "por semana", "month": "por mês", "hour": "por hora do dia"}
# The law core's refusal codes a cab's compliance answer gives (taxilaw.compliance and the rules it calls).
BLOCK_REASONS = {
    "alvara_expired": "alvará vencido", "cmt_expired": "CMT vencida", "cmt_missing": "sem CMT",
    "inspection_failed": "reprovado na vistoria", "inspection_overdue": "vistoria vencida",
    "inspection_missing": "sem vistoria", "permit_suspended": "permissão suspensa", "permit_revoked": "permissão revogada",
    "permit_withdrawn": "desistência", "permit_extinct": "permissão extinta", "vehicle_too_old": "veículo acima da idade",
    "no_vehicle": "sem veículo em serviço", "auxiliary_not_authorized": "auxiliar não autorizado",
    "social_security_overdue": "contribuição previdenciária em atraso", "replacement_tolerance_over": "tolerância de troca vencida",
}
