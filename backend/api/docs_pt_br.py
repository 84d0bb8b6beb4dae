"""The OpenAPI document in pt-BR for those who integrate with the municipality: tag descriptions and one summary per
operation, in one place (the code's docstrings, which become the operations' descriptions, stay in English).

``pt_br_summaries`` is a drf-spectacular postprocessing hook: an operation's summary comes from ``SUMMARIES`` (by
operationId), else from an ``extend_schema(summary=...)`` already written in pt-BR, else from the standard
list/create/retrieve/update/destroy pattern over ``RESOURCES`` (by the path's first segment after /api/).
tests/backend/test_api_docs_pt_br.py fails when an operation is left without one. Pure data: settings import it."""

TAGS = [
    {"name": "accounts", "description": "Login (tokens que expiram) e saída"},
    {"name": "registry", "description": "Permissões, pessoas, veículos, auxiliares, CMTs, vistorias e taxímetros (Cap. I, II, V, VII)"},
    {"name": "ranks", "description": "Zonas, pontos, filas nos pontos, permutas e concursos (Art. 15-27, 41)"},
    {"name": "tariffs", "description": "Decretos, tabelas de correção, estudos tarifários e o taxímetro (Art. 42-47)"},
    {"name": "statements", "description": "Extratos semanais da partilha 25/75 (Art. 1)"},
    {"name": "enforcement", "description": "Autos de infração, penalidades, recursos e reclamações (Art. 54-64)"},
    {"name": "parameters", "description": "Parâmetros municipais datados e feriados"},
    {"name": "dispatch", "description": "Despacho de rádio-táxi: passageiros, endereços e pagamento das corridas (Art. 66)"},
    {"name": "bookings", "description": "Corridas agendadas (Art. 66)"},
    {"name": "trips", "description": "Corridas: dados do passageiro (LGPD) e relatórios"},
    {"name": "payments", "description": "Pix: as chaves dos motoristas e a cobrança das corridas"},
    {"name": "receipts", "description": "Recibos das corridas do passageiro"},
    {"name": "ratings", "description": "Avaliações das corridas pelos passageiros"},
    {"name": "notices", "description": "Avisos da DIMUTRAN aos motoristas"},
    {"name": "indicators", "description": "Indicadores do serviço para a DIMUTRAN"},
    {"name": "open-data", "description": "Dados abertos, com a licença e o esquema"},
    {"name": "drf_spectacular", "description": "O esquema OpenAPI desta API"},
]

# path segment after /api/ -> (one, with its article; all, with theirs)
RESOURCES = {
    "absence-justifications": ("uma justificativa de falta", "as justificativas de falta"),
    "appeals": ("um recurso", "os recursos"),
    "autos": ("um auto de infração", "os autos de infração"),
    "auxiliaries": ("um auxiliar", "os auxiliares"),
    "cmts": ("uma CMT", "as CMTs"),
    "complaints": ("uma reclamação", "as reclamações"),
    "contests": ("um concurso", "os concursos"),
    "correction-tables": ("uma tabela de correção", "as tabelas de correção"),
    "infraction-types": ("um tipo de infração", "os tipos de infração"),
    "inquiries": ("um inquérito administrativo", "os inquéritos administrativos"),
    "inspections": ("uma vistoria", "as vistorias"),
    "municipal-holidays": ("um feriado municipal", "os feriados municipais"),
    "notices": ("um aviso", "os avisos"),
    "parameters": ("um parâmetro datado", "os parâmetros datados"),
    "penalties": ("uma penalidade", "as penalidades"),
    "people": ("uma pessoa do cadastro", "as pessoas do cadastro"),
    "permits": ("uma permissão", "as permissões"),
    "rank-checkins": ("uma entrada na fila de um ponto", "as entradas nas filas dos pontos"),
    "rank-swaps": ("uma permuta de pontos", "as permutas de pontos"),
    "ranks": ("um ponto de táxi", "os pontos de táxi"),
    "renewals": ("uma renovação de alvará", "as renovações de alvará"),
    "statements": ("um extrato semanal fechado", "os extratos semanais fechados"),
    "suspensions": ("uma suspensão", "as suspensões"),
    "tariff-studies": ("um estudo tarifário", "os estudos tarifários"),
    "tariffs": ("uma tarifa decretada", "as tarifas decretadas"),
    "taximeters": ("um taxímetro", "os taxímetros"),
    "transfers": ("uma transferência de permissão", "as transferências de permissão"),
    "vehicles": ("um veículo", "os veículos"),
}
VERBS = {"list": "Lista {all}", "create": "Cadastra {one}", "retrieve": "Consulta {one}", "update": "Altera {one}",
         "partial_update": "Altera em parte {one}", "destroy": "Remove {one}"}

SUMMARIES = {
    "api_absence_justifications_accept_create": "Aceita a justificativa de falta por força maior (Art. 9, V)",
    "api_absence_justifications_refuse_create": "Recusa a justificativa de falta (Art. 9, V)",
    "api_addresses_retrieve": "Busca endereços de Muriaé (ruas, locais e CEPs)",
    "api_addresses_reverse_retrieve": "O endereço de um ponto do mapa (busca reversa)",
    "api_appeals_judge_create": "Registra o julgamento do recurso (COMUTRAM ou Prefeito)",
    "api_appeals_notify_judgment_create": "Registra que o infrator foi notificado do julgamento",
    "api_auth_logout_create": "Sai (o token deixa de valer)",
    "api_auth_token_create": "Entra: recebe um token de acesso que expira",
    "api_autos_deadlines_retrieve": "Os prazos do processo do auto (Art. 63)",
    "api_autos_decide_create": "Julga o auto de infração (penalidades do Art. 54)",
    "api_autos_defence_create": "Registra a defesa escrita (Art. 63, §1)",
    "api_autos_deliver_copy_create": "Registra a entrega da cópia do auto ao infrator (Art. 62)",
    "api_autos_notify_create": "Registra a notificação da decisão (Art. 63, §2)",
    "api_auxiliaries_cancel_create": "Cancela o cadastro de um auxiliar",
    "api_auxiliaries_pix_receiver_create": "Define de quem é a chave Pix que recebe as corridas do auxiliar",
    "api_auxiliaries_social_security_proofs_create": "Registra o comprovante trimestral do INSS (Art. 1, §5)",
    "api_bookings_retrieve": "Lista os agendamentos",
    "api_bookings_create": "Agenda uma corrida (Art. 66)",
    "api_bookings_cancel_create": "Cancela um agendamento ainda não despachado",
    "api_complaints_create": "Registra uma reclamação sobre uma corrida concluída (Art. 60)",
    "api_complaints_triage_create": "Encaminha a reclamação: vira auto de infração ou é arquivada com motivo",
    "api_contests_create": "Publica o edital de um concurso (Art. 16-18)",
    "api_contests_candidates_list": "Lista os candidatos e seus pontos (Art. 20)",
    "api_contests_candidates_create": "Inscreve um candidato no concurso (Art. 19)",
    "api_contests_classify_create": "Classifica os candidatos e distribui os pontos (Art. 19-21)",
    "api_contests_draws_retrieve": "Lista os sorteios públicos de empates (Art. 21)",
    "api_contests_draws_create": "Registra o sorteio público de um empate (Art. 21)",
    "api_contests_publish_result_create": "Publica o resultado do concurso: as outorgas aos vencedores",
    "api_contests_ranking_list": "A classificação publicada do concurso (Art. 19-21)",
    "api_correction_tables_rows_retrieve": "As linhas imprimíveis da tabela de correção (Art. 45, §3 e §5)",
    "api_driver_ranks_retrieve": "Os pontos mais próximos do táxi, com as filas",
    "api_fare_estimate_create": "Estima a tarifa entre dois pontos",
    "api_geo_boundary.geojson_retrieve": "O limite do município (GeoJSON)",
    "api_geo_central_zone_create": "Envia um novo polígono datado da zona central (Art. 24)",
    "api_geo_central_zone.geojson_retrieve": "A zona central em vigor (GeoJSON, Art. 24)",
    "api_geo_ranks.geojson_retrieve": "Os pontos de táxi em operação (GeoJSON)",
    "api_infractor_records_retrieve": "A ficha do infrator: infrações comprovadas e reincidência",
    "api_inquiries_decide_create": "Decide o inquérito administrativo (Art. 10)",
    "api_inquiries_defence_create": "Registra a defesa no inquérito (Art. 10, §1)",
    "api_inquiries_summon_create": "Registra o dia da intimação do permissionário (Art. 10)",
    "api_inspections_pay_fee_create": "Registra o pagamento da taxa de vistoria",
    "api_me_retrieve": "Quem está logado: a CMT, o táxi que dirige (CVI) e as permissões",
    "api_me_pix_key_retrieve": "Consulta a chave Pix do motorista logado",
    "api_me_pix_key_update": "Cadastra ou troca a chave Pix do motorista logado",
    "api_me_pix_key_destroy": "Remove a chave Pix do motorista logado",
    "api_me_pix_terms_retrieve": "De quem é a chave Pix que recebe as corridas do motorista logado",
    "api_meter_recompute_create": "Recalcula o taxímetro pelo trajeto de GPS da corrida",
    "api_passenger_rides_retrieve": "As corridas do passageiro, da mais recente à mais antiga",
    "api_passenger_rides_receipt_retrieve": "O recibo de uma corrida do passageiro (JSON)",
    "api_passenger_rides_receipt.pdf_retrieve": "O recibo de uma corrida do passageiro (PDF)",
    "api_passengers_create": "Cadastra um passageiro para pedir táxi",
    "api_passengers_me_destroy": "Apaga os dados do passageiro (LGPD, art. 18, VI)",
    "api_penalties_pay_create": "Registra o pagamento de uma multa",
    "api_permits_compliance_retrieve": "Esta pessoa pode dirigir este táxi agora?",
    "api_permits_inquiries_create": "Abre o inquérito administrativo antes de uma cassação (Art. 9-10)",
    "api_permits_judicial_loss_create": "Registra o trânsito em julgado da perda judicial do veículo (Art. 11, § único)",
    "api_permits_vehicle_tolerance_create": "Concede a tolerância de 1 ou 3 meses para o veículo (Art. 34, § único)",
    "api_permits_judicial_loss_substitution_create": "Substitui o veículo perdido por decisão judicial, em 30 dias",
    "api_permits_renewals_create": "Pede a renovação do alvará com os documentos do Art. 5",
    "api_permits_replace_vehicle_create": "Troca o táxi da permissão (Art. 34)",
    "api_permits_sign_term_create": "Assina o termo de compromisso; o alvará é emitido (Art. 3)",
    "api_permits_transfers_create": "Transfere a permissão (Art. 6-7)",
    "api_permits_withdraw_create": "O titular desiste da permissão (Art. 8)",
    "api_rank_checkins_create": "Entra na fila do ponto onde o servidor viu o táxi",
    "api_rank_checkins_check_out_create": "Sai da fila do ponto",
    "api_rank_swaps_authorize_create": "Autoriza a permuta de pontos (Art. 26)",
    "api_rank_swaps_refuse_create": "Recusa a permuta de pontos (Art. 26)",
    "api_ranks_destroy": "Cancela um ponto de táxi (fica no histórico)",
    "api_ranks_absence_retrieve": "A frequência dos titulares do ponto no mês (Art. 9, V)",
    "api_ranks_observations_list": "Lista as fiscalizações do ponto (Art. 27, §2)",
    "api_ranks_observations_create": "Registra uma fiscalização do ponto (Art. 27, §2)",
    "api_ranks_staffing_retrieve": "O ponto está provido de táxis? (Art. 27, §2)",
    "api_ranks_titulars_list": "Os titulares atuais de um ponto privativo",
    "api_ranks_titulars_create": "Designa uma permissão titular do ponto",
    "api_ratings_create": "Avalia uma corrida (de 1 a 5 estrelas)",
    "api_ratings_report_retrieve": "Relatório das avaliações por permissão",
    "api_renewals_documents_create": "Registra os documentos apresentados depois (Art. 5)",
    "api_reports_driver_cancellations_retrieve": "Relatório dos cancelamentos pelos motoristas",
    "api_rides_release_fare_create": "Libera uma tarifa retida para conferência (Art. 43)",
    "api_rides_share_create": "Cria um link para acompanhar a corrida (compartilhar com um contato)",
    "api_rides_share_destroy": "Revoga os links de acompanhamento da corrida",
    "api_rides_sos_create": "SOS: avisa a central durante a corrida, com a última posição",
    "api_sos_ack_create": "A central registra que viu o SOS (ciente)",
    "api_rides_payment_retrieve": "Consulta como a corrida foi paga",
    "api_rides_payment_create": "Registra como a corrida foi paga",
    "api_rides_pix_retrieve": "O Pix estático da tarifa de uma corrida concluída",
    "api_schema_retrieve": "O esquema OpenAPI desta API",
    "statements_csv": "Um extrato semanal fechado em CSV",
    "statements_pdf": "Um extrato semanal fechado em PDF",
    "api_statements_current_retrieve": "A semana em andamento do motorista logado (provisória)",
    "api_tariffs_current_retrieve": "A tarifa em vigor e a bandeira agora (Art. 45)",
    "api_tariffs_review_alert_retrieve": "A tarifa em vigor tem mais de seis meses? (Art. 44)",
    "api_taximeters_aferitions_create": "Registra uma aferição do INMETRO, com certificado e lacre",
    "api_taximeters_remove_create": "Retira o taxímetro do táxi, com a permissão do INMETRO",
    "api_transfers_pay_fee_create": "Registra o pagamento da taxa de transferência (Art. 6, §5)",
    "api_zones_classify_retrieve": "A zona de um ponto: central, periférica ou fora do município",
}
METHODS = ("get", "post", "put", "patch", "delete")


def standard_summary(operation_id: str, path: str) -> str | None:
    """'Lista os veículos' for api_vehicles_list on /api/vehicles/, and so on (``VERBS``); None when not standard."""
    parts = path.strip("/").split("/")
    if len(parts) not in (2, 3) or parts[0] != "api" or (len(parts) == 3 and parts[2] != "{id}"):
        return None
    names = RESOURCES.get(parts[1])
    verb = next((v for v in VERBS if operation_id == f"api_{parts[1].replace('-', '_')}_{v}"), None)
    if not names or not verb:
        return None
    return VERBS[verb].format(one=names[0], all=names[1])


def pt_br_summaries(result, generator, request, public):
    """drf-spectacular postprocessing hook (module docstring)."""
    for path, item in result.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            summary = SUMMARIES.get(operation["operationId"]) or operation.get("summary") or standard_summary(operation["operationId"], path)
            if summary:
                operation["summary"] = summary
    return result
