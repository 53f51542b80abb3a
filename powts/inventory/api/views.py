from django.core.exceptions import PermissionDenied
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from powts.inventory import edit_fields, policies, selectors, services
from powts.inventory.api import serializers as s
from powts.inventory.filtersets import SystemFilterSet
from powts.inventory.versions import StaleEdit


class SystemViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The inventory of systems: the same filters and search as the web list (`q` searches)."""

    filterset_class = SystemFilterSet
    lookup_value_regex = r"[0-9]+"  # a non-numeric id is a 404 from the URL, never a query
    serializer_class = s.SystemSerializer

    def get_queryset(self):
        # the county's slug from one query per page, not a join (see selectors.system_list)
        qs = selectors.system_list(user=self.request.user).prefetch_related("jurisdiction")
        return qs.prefetch_related("components") if self.action == "retrieve" else qs

    def get_serializer_class(self):
        return s.SystemDetailSerializer if self.action == "retrieve" else s.SystemSerializer

    @extend_schema(request=s.SystemCreateSerializer, responses={201: s.SystemDetailSerializer})
    def create(self, request, format=None):  # format: the router's .json suffix
        if not policies.can_edit_systems(request.user):
            raise PermissionDenied("Only county staff add systems.")
        data = s.SystemCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        system = services.system_create(jurisdiction=request.user.jurisdiction, action="system added through the API",
                                        **{k: v for k, v in data.validated_data.items() if v is not None})
        return Response(s.SystemDetailSerializer(system, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.SystemUpdateSerializer, responses={200: s.SystemDetailSerializer, 409: s.StaleEditSerializer})
    def partial_update(self, request, pk=None, format=None):
        """Change a system's fields: `version` (the one you read) and `reason` are required. The values are
        parsed as the import and the web form parse them (same messages); a stale `version` is a 409 with
        what changed since."""
        if not policies.can_edit_systems(request.user):
            raise PermissionDenied("Only county staff change systems.")
        system = selectors.system_get(user=request.user, pk=pk)
        if not policies.can_edit_system(request.user, system):
            raise PermissionDenied("That system is in another county.")
        if not isinstance(request.data, dict):
            raise ValidationError({"non_field_errors": ["send a JSON object of the fields to change"]})
        unknown = sorted(k for k in request.data if k not in edit_fields.SYSTEM and k not in ("version", "reason"))
        data, errors = edit_fields.parse(edit_fields.SYSTEM, request.data, partial=True)
        meta, meta_errors = edit_fields.parse({"version": edit_fields.version, "reason": edit_fields.reason}, request.data,
                                              partial=False)
        errors.update(meta_errors)
        for name in unknown:
            errors[name] = [f"{name} cannot be changed here"]
        if errors:
            raise ValidationError(errors)
        try:
            services.system_update(system=system, data=data, action="system edited through the API", **meta)
        except StaleEdit as exc:
            return Response(exc.as_dict(), status=status.HTTP_409_CONFLICT)
        return Response(s.SystemDetailSerializer(system, context={"request": request}).data)

    @extend_schema(responses={200: s.AuditEventSerializer(many=True)})
    @action(detail=True, pagination_class=None)  # the whole history as one list, as the schema says
    def history(self, request, pk=None, format=None):
        """Every recorded change to the system, its parcel and its owner, newest first."""
        system = selectors.system_get(user=request.user, pk=pk)
        return Response(s.AuditEventSerializer(selectors.system_history(system=system), many=True).data)
