print("WidgetApp: coming soon")
