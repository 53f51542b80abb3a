from rest_framework import serializers

from powts.audit.models import AuditEvent
from powts.inventory.choices import SystemStatus, SystemType
from powts.inventory.models import Component, System


class ComponentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Component
        fields = ["id", "kind", "capacity_gallons", "manufacturer", "model", "installed_on", "installed_on_precision"]


class SystemSerializer(serializers.ModelSerializer):
    jurisdiction = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    parcel_number = serializers.CharField(source="parcel.parcel_number", read_only=True)
    site_address = serializers.CharField(source="parcel.site_address", read_only=True)
    municipality = serializers.CharField(source="parcel.municipality", read_only=True)
    owner_name = serializers.CharField(source="parcel.owner.name", read_only=True, default=None)
    url = serializers.HyperlinkedIdentityField(view_name="api:system-detail")

    class Meta:
        model = System
        fields = ["id", "url", "jurisdiction", "system_id", "parcel_number", "site_address", "municipality", "owner_name",
                  "system_type", "status", "installed_on", "installed_on_precision", "last_serviced_on", "design_flow_gpd",
                  "bedrooms", "structures_served", "permit_number", "extra", "version"]


class SystemDetailSerializer(SystemSerializer):
    components = ComponentSerializer(many=True, read_only=True)

    class Meta(SystemSerializer.Meta):
        fields = [*SystemSerializer.Meta.fields, "components"]


class SystemCreateSerializer(serializers.Serializer):
    system_id = serializers.CharField(max_length=60)
    parcel_number = serializers.CharField(max_length=60)
    system_type = serializers.ChoiceField(choices=SystemType.choices)
    owner_name = serializers.CharField(max_length=200)
    owner_mailing_address = serializers.CharField(required=False, allow_blank=True, default="")
    site_address = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    municipality = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)
    status = serializers.ChoiceField(choices=SystemStatus.choices, default=SystemStatus.ACTIVE)
    installed_on = serializers.DateField(required=False, allow_null=True)
    design_flow_gpd = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    bedrooms = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=1000)
    permit_number = serializers.CharField(required=False, allow_blank=True, default="", max_length=60)


class SystemUpdateSerializer(serializers.Serializer):
    """For the schema: the view parses the body with powts.inventory.edit_fields (the import's parsers)."""

    version = serializers.IntegerField(min_value=1, help_text="The system's version as you read it; a stale one is a 409.")
    reason = serializers.CharField(max_length=200, help_text="Why: kept in the system's history.")
    system_type = serializers.ChoiceField(choices=SystemType.choices, required=False)
    status = serializers.ChoiceField(choices=SystemStatus.choices, required=False)
    installed_on = serializers.DateField(required=False, allow_null=True)
    last_serviced_on = serializers.DateField(required=False, allow_null=True)
    design_flow_gpd = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    bedrooms = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=1000)
    structures_served = serializers.CharField(required=False, allow_blank=True, max_length=200)
    permit_number = serializers.CharField(required=False, allow_blank=True, max_length=60)


class AuditEventSerializer(serializers.ModelSerializer):
    actor = serializers.SerializerMethodField()
    record = serializers.CharField(source="object_repr")

    class Meta:
        model = AuditEvent
        fields = ["at", "actor", "channel", "action", "verb", "record", "changes", "batch"]

    def get_actor(self, event) -> str:
        return event.actor.username if event.actor_id else event.actor_label


class StaleEditSerializer(serializers.Serializer):
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    current_version = serializers.IntegerField()
    changes = serializers.ListField(child=serializers.CharField(), help_text="What was changed since your version, oldest first.")
