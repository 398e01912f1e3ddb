# dags/load_events.py: the daily Airflow DAG that runs the model
# (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dags.html).
from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.bash import BashOperator

default_args = {
    "owner": "analytics",
    "retries": 1,
    "retry_delay": timedelta(minutes=5),
}

with DAG(
    dag_id="load_events",
    schedule="@daily",
    start_date=datetime(2024, 3, 10),
    catchup=True,
    default_args=default_args,
    tags=["marts"],
) as dag:
    BashOperator(
        task_id="dbt_run",
        bash_command="dbt run --select events_incremental --vars '{ds: {{ ds }}}'",
    )
