// A layout that places its items left to right and wraps them onto the next line when the width
// runs out (after Qt's "Flow Layout" example), so the precision lab's rows of controls fit a narrow
// dock. Put a label and its field in one item (fieldGroup) so they never part.
#pragma once

#include <QLayout>
#include <QList>

class QLabel;

namespace warpscope::viz {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int horizontalSpacing = 10, int verticalSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return static_cast<int>(m_items.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    int arrange(const QRect& rect, bool apply) const;

    QList<QLayoutItem*> m_items;
    int m_horizontalSpacing;
    int m_verticalSpacing;
};

// A label and its field side by side in one widget; the label's buddy is the field.
QWidget* fieldGroup(const QString& label, QWidget* field, const QString& toolTip = {}, QWidget* extra = nullptr);

} // namespace warpscope::viz
