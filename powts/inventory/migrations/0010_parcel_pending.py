from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("inventory", "0009_search_text_bare_parcel_number")]

    operations = [
        migrations.AddField(
            model_name="parcel",
            name="pending",
            field=models.BooleanField(db_default=False, default=False,
                                      help_text="Named in a permit application; county staff have not yet confirmed it."),
        ),
    ]
