from django.apps import AppConfig


class OversightConfig(AppConfig):
    name = "powts.oversight"
    label = "oversight"

    def ready(self):
        from powts.core import news, registry
        from powts.oversight import demo, panels, services

        news.subscribe("permit.issuing", services.on_permit_issuing)
        registry.register("permit_panel", "issuance hold", panels.permit_hold,
                          template="oversight/_permit_hold.html", order=10)
        registry.register("dashboard_panel", "oversight", panels.dashboard_oversight,
                          template="oversight/_dashboard_oversight.html", order=30)
        registry.register("demo_loader", "oversight (audits, flags, referrals, assessments)", demo.load, order=90)
        registry.register("demo_loader", "oversight (random inspections of applications)",
                          demo.load_application_inspections, order=91)
