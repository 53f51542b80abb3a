from rest_framework import serializers

from powts.maintenance.models import Notice, Report, Schedule


class ReportInSerializer(serializers.Serializer):
    """A report as filed. Checked by the service, which names each bad field (HTTP 400)."""

    jurisdiction = serializers.CharField(required=False, help_text="County slug; contractors name it unless there is only one.")
    system_id = serializers.CharField()
    kind = serializers.CharField(help_text="inspection, pumping, servicing or abandonment (a final report)")
    work_date = serializers.CharField(help_text="YYYY-MM-DD")
    license_number = serializers.CharField()
    sludge_scum_fraction = serializers.CharField(required=False, allow_blank=True, allow_null=True, help_text="0-1, or 1/3, or 25%")
    effluent_ponding = serializers.BooleanField(required=False, allow_null=True)
    gallons_pumped = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    disposal_site = serializers.CharField(required=False, allow_blank=True)
    components_serviced = serializers.CharField(required=False, allow_blank=True)
    failure_observed = serializers.BooleanField(required=False)
    water_meter_reading = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    abandonment_method = serializers.CharField(required=False, allow_blank=True,
                                               help_text="abandonment only: crushed_filled or removed")
    location = serializers.CharField(required=False, allow_blank=True)
    notes = serializers.CharField(required=False, allow_blank=True)


class ReportSerializer(serializers.ModelSerializer):
    license_number = serializers.CharField(source="license.number", read_only=True)
    kind = serializers.CharField(read_only=True, help_text="inspection, pumping, servicing or abandonment")
    review_status = serializers.CharField(read_only=True, help_text="'' (in the inventory), pending, matched or rejected")
    channel = serializers.CharField(read_only=True)
    jurisdiction = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    in_inventory = serializers.SerializerMethodField()

    class Meta:
        model = Report
        fields = ["id", "jurisdiction", "system_ref", "in_inventory", "kind", "work_date", "license_number", "sludge_scum_fraction",
                  "effluent_ponding", "gallons_pumped", "disposal_site", "components_serviced", "failure_observed",
                  "water_meter_reading", "abandonment_method", "location", "notes", "channel", "filed_at", "late", "review_status",
                  "failure_flag"]

    def get_in_inventory(self, obj) -> bool:
        return obj.system_id is not None


class ScheduleSerializer(serializers.ModelSerializer):
    stage = serializers.CharField(read_only=True, help_text="the last notice sent for this due date")
    class Meta:
        model = Schedule
        fields = ["system_ref", "rule", "interval_months", "basis_on", "basis_kind", "due_on", "notice_on", "needs_data", "exempt",
                  "pumping_required", "failure_reported", "stage", "stage_on", "delinquent"]


class NoticeSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True, help_text="first_notice, reminder, delinquent, violation or enforcement_order")
    class Meta:
        model = Notice
        fields = ["kind", "due_on", "as_of", "sent_at", "to_name", "emailed_at", "citation"]


class DueRowSerializer(serializers.Serializer):
    system_id = serializers.CharField()
    due_on = serializers.DateField(allow_null=True)
    kind = serializers.CharField()
