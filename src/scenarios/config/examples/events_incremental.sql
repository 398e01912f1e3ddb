-- models/marts/events_incremental.sql: a dbt incremental model
-- (https://docs.getdbt.com/docs/build/incremental-models).
{{
  config(
    materialized='incremental',
    unique_key='event_id',
    incremental_strategy='merge',
    on_schema_change='fail'
  )
}}

select event_id, event_date, amount
from {{ source('raw', 'events') }}
where event_date = '{{ var("ds") }}'
