# The options of a question that asks the user to choose (InputRequest.Kind.CHOICE).

import apps.core.fields
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('runtime', '0007_storable_text'),
    ]

    operations = [
        migrations.AddField(
            model_name='inputrequest',
            name='choices',
            field=apps.core.fields.StorableJSONField(blank=True, default=list),
        ),
        migrations.AlterField(
            model_name='inputrequest',
            name='kind',
            field=models.CharField(choices=[('otp', 'Otp'), ('text', 'Text'), ('choice', 'Choice')], max_length=8),
        ),
    ]
