// The panels' message and summary lines: labels that wrap to the dock's width and whose text a
// learner can select and copy.
#pragma once

#include <QFont>
#include <QLabel>
#include <QString>

namespace warpscope::viz {

enum class LabelWeight { Normal, Bold };

inline QLabel* selectableTextLabel(LabelWeight weight, const QString& objectName = {})
{
    auto* label = new QLabel;
    if (!objectName.isEmpty())
        label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (weight == LabelWeight::Bold) {
        QFont font = label->font();
        font.setBold(true);
        label->setFont(font);
    }
    return label;
}

} // namespace warpscope::viz
