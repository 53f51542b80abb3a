"""The counties a state reader oversees, each with the pages they may open for it."""
import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html_join

from powts.jurisdictions.models import Jurisdiction


class CountyTable(tables.Table):
    name = tables.Column(verbose_name="County", order_by=("name", "id"))
    pages = tables.Column(empty_values=(), verbose_name="Open", orderable=False, exclude_from_export=True)

    noun = "counties"
    caption = "Counties running a POWTS program in powts"

    class Meta:
        model = Jurisdiction
        fields = ()
        order_by = ("name",)
        order_by_field = "sort"
        empty_text = "No county yet."

    def __init__(self, *args, links=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.links = links  # (label, url name, query word for the county), only those the reader may open

    def render_pages(self, record):
        return format_html_join(" · ", '<a href="{}?{}={}">{}<span class="usa-sr-only"> of {}</span></a>',
                                ((reverse(name), word, record.slug, label, record.name) for label, name, word in self.links))
